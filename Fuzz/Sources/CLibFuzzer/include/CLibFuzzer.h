#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a main function of one's own (llvm.org/docs/LibFuzzer.html,
/// "Using libFuzzer as a library"). SwiftPM gives every executable target a
/// main of its own (`<Target>_main`), so the targets call this from it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
