import OpenCoreData
print("OpenCoreData demo")
