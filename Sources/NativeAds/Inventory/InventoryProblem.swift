/// The rule a store item breaks (see ``InventoryError``), in the domain's terms: which asset,
/// source or listed creative, and what about it.
public indirect enum InventoryProblem: Sendable, Equatable {
  /// The item's ID is empty.
  case emptyID

  // MARK: Formats

  /// The format's asset at `index` has an empty name.
  case emptyAssetName(index: Int)
  /// The format's asset at `index` has the name of the one at `firstIndex`.
  case repeatedAssetName(index: Int, firstIndex: Int, name: String)
  /// Redefining the format would make a stored creative of it break `problem`.
  case wouldInvalidateCreative(id: String, InventoryProblem)

  // MARK: Creatives

  /// The eCPM is negative or not finite.
  case invalidECPM
  /// The media's duration or aspect ratio is negative or not finite.
  case media(MediaProblem)
  /// The Mute This Ad reason at `index` is empty.
  case emptyMuteReason(index: Int)
  /// The Mute This Ad reason at `index` repeats an earlier one.
  case repeatedMuteReason(index: Int, reason: String)
  /// The AdChoices image has no positive size.
  case adChoicesImage(ImageProblem)
  /// A system-defined creative's assets are not servable.
  case nativeAssets(NativeAssetsProblem)
  /// A custom creative names a format the inventory does not define.
  case unknownFormat(String)
  /// A custom creative's asset `name` breaks a rule of its format.
  case customAsset(name: String, CustomAssetProblem)

  // MARK: Ad units

  /// The creative listed at `index` is not stored.
  case unknownCreative(index: Int, creativeID: String)
  /// The creative listed at `index` is listed at `firstIndex` already.
  case repeatedCreative(index: Int, firstIndex: Int, creativeID: String)
  /// The waterfall deadline is 0.
  case nonPositiveDeadline
  /// The waterfall lists no source.
  case emptyWaterfall
  /// The waterfall source at `index` breaks `problem`.
  case source(index: Int, WaterfallSourceProblem)

  // MARK: Removal

  /// A format cannot be removed while a creative uses it (the first by ID).
  case formatInUse(creativeID: String)
  /// A creative cannot be removed while an ad unit lists it (the first by ID).
  case creativeInUse(adUnitID: String)
}

/// The rule one asset of a custom creative breaks (``InventoryProblem/customAsset(name:_:)``).
public enum CustomAssetProblem: Sendable, Equatable {
  /// The asset is given twice.
  case givenTwice
  /// The format defines no asset by that name.
  case notInFormat(formatID: String)
  /// The format defines the asset with another type.
  case wrongType(expected: CustomAssetType, formatID: String)
  /// A second video asset (`first` is the first).
  case secondVideo(first: String)
  /// A video asset in a creative whose media is not a video.
  case videoWithoutVideoContent
  /// A required asset of the format is missing.
  case requiredByFormat(formatID: String)
  /// An image asset has no positive size.
  case image(ImageProblem)
}

/// The rule one waterfall source breaks (``InventoryProblem/source(index:_:)``).
public enum WaterfallSourceProblem: Sendable, Equatable {
  /// The eCPM is negative or not finite.
  case invalidECPM
  /// A second inventory source (`firstIndex` is the first).
  case repeatedInventory(firstIndex: Int)
  /// A custom event without an adapter class name.
  case emptyAdapterClassName
  /// A custom event with a timeout of 0.
  case nonPositiveTimeout
}
