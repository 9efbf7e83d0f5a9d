import Glibc
import NativeAdsRPC

/// `--write-schemas DIR`: writes the generated files of `schemas/`.
enum SchemaWriter {
  static func write(to directory: String) -> Bool {
    for file in SchemaFiles.all(inventory: StoreLoader.builtInInventory()) {
      let path = directory + "/" + file.name
      guard let handle = fopen(path, "w") else {
        Log.line("native-ads: error: \(path): \(String(cString: strerror(errno)))")
        return false
      }
      fputs(file.text, handle)
      fclose(handle)
      Log.line("wrote \(path)")
    }
    return true
  }
}
