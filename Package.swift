// swift-tools-version:6.0
import PackageDescription

/// Release builds skip the run-time exclusivity checks on the request path (they cost ~20% of
/// a small request). Debug builds, which run every test, keep them.
let hotPath: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "native-ads",
  products: [
    .executable(name: "native-ads", targets: ["native-ads"])
  ],
  targets: [
    .systemLibrary(
      name: "CLibUV",
      pkgConfig: "libuv",
      providers: [.apt(["libuv1-dev"])]
    ),
    .target(name: "UVTransport", dependencies: ["CLibUV"], swiftSettings: hotPath),
    .target(name: "JSONRPC", swiftSettings: hotPath),
    .target(name: "NativeAds", swiftSettings: hotPath),
    .target(
      name: "NativeAdsRPC", dependencies: ["JSONRPC", "NativeAds"],
      resources: [
        .embedInCode("Resources/builtin-store.json"),
        .embedInCode("Resources/openrpc-examples.json"),
      ], swiftSettings: hotPath),
    .executableTarget(
      name: "native-ads",
      dependencies: ["UVTransport", "NativeAdsRPC", "JSONRPC", "NativeAds"],
      swiftSettings: hotPath
    ),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "NativeAdsTests", dependencies: ["NativeAds"]),
    .testTarget(name: "NativeAdsRPCTests", dependencies: ["NativeAdsRPC", "JSONRPC", "NativeAds"]),
    .testTarget(name: "UVTransportTests", dependencies: ["UVTransport"]),
  ],
  swiftLanguageModes: [.v6]
)
