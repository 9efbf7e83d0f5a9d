import JSONRPC
import NativeAds

/// Loads store documents (`--store FILE`, and the built-in inventory, which is itself a store
/// file embedded at build time) into an ``Inventory``, item by item, with the same rules as
/// the `store.*` methods.
///
/// A document is streamed (see ``StoreLoad``): read in chunks from a ``StoreByteSource``, each
/// item parsed and validated on its own, so that what a load holds besides the inventory is one
/// item and one read; docs/sdk-behaviour.md ("The store") says what that means for limits and
/// memory. Loop-thread only (start-up).
public enum StoreLoader {
  /// The built-in inventory (`Sources/NativeAdsRPC/Resources/builtin-store.json`).
  public static func builtInInventory() -> Inventory {
    let inventory = Inventory()
    do {
      try PackageResources.builtin_store_json.withUnsafeBytes { bytes in
        try load(bytes, into: inventory)
      }
    } catch {
      // The file is part of the build and a test loads it: reaching here is a build defect.
      fatalError("the built-in store is invalid: \(error)")
    }
    return inventory
  }

  /// Adds every format, creative and ad unit of the document in `bytes` to `inventory` (see
  /// ``load(from:into:options:)``).
  public static func load(_ bytes: UnsafeRawBufferPointer, into inventory: Inventory)
    throws(StoreLoadError)
  {
    try load(from: StoreBytes(bytes), into: inventory)
  }

  /// Adds every format, creative and ad unit of the document `source` reads to `inventory`:
  /// formats, then creatives, then ad units, whatever their order in the document.
  ///
  /// - Throws: ``StoreLoadError`` naming the place (`creatives[3].assets.icon.width`) and the
  ///   problem, the same error the whole document would get from the `store.*` rules; the
  ///   inventory then holds part of the document.
  @discardableResult
  public static func load(
    from source: some StoreByteSource, into inventory: Inventory,
    options: StoreLoadOptions = StoreLoadOptions()
  ) throws(StoreLoadError) -> StoreLoadSummary {
    try StoreLoad(source: source, inventory: inventory, options: options).run()
  }
}
