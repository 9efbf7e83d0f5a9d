// swift-tools-version:6.0
import PackageDescription

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
    .target(name: "UVTransport", dependencies: ["CLibUV"]),
    .target(name: "JSONRPC"),
    .target(name: "NativeAds"),
    .target(name: "NativeAdsRPC", dependencies: ["JSONRPC", "NativeAds"]),
    .executableTarget(
      name: "native-ads",
      dependencies: ["UVTransport", "NativeAdsRPC", "JSONRPC", "NativeAds"]
    ),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "NativeAdsTests", dependencies: ["NativeAds"]),
    .testTarget(name: "NativeAdsRPCTests", dependencies: ["NativeAdsRPC", "JSONRPC", "NativeAds"]),
  ],
  swiftLanguageModes: [.v6]
)
