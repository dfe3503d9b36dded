// Declarations only (include/CLibFuzzer.h); libFuzzer itself comes with -sanitize=fuzzer.
#include "CLibFuzzer.h"
