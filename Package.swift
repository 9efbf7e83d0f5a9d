// swift-tools-version:6.0
import PackageDescription

/// Release builds of the service's modules:
/// - skip the run-time exclusivity checks on the request path (they cost ~20% of a small
///   request). Debug builds, which run every test, keep them;
/// - reach the metadata of generic types by their accessors, not by mangled names
///   (`-disable-concrete-type-metadata-mangled-name-accessors`). A mangled name is smaller
///   code, but its first use demangles the name and looks up each conformance it needs by
///   scanning every conformance record of the binary (the static executable holds the whole
///   standard library's): the built-in store's first load paid that for some sixty types,
///   0.7 M of the 2.7 M instructions from spawn to the first loadAd reply. Either way the
///   metadata is cached after its first use: a request costs the same;
/// - optimise across the package's modules (`-cross-module-optimization`): the generic and
///   small functions of one module (the domain's, the JSON layer's) are specialised and
///   inlined into the modules that call them, as they are inside their own, where without it
///   a call from the RPC layer went through unspecialised generics and value witnesses. A
///   loadAd + releaseAd pair takes 152 fewer instructions of 12,583, a stringForKey 15 fewer,
///   and start-up 60 K fewer; the executable is 240 KB larger (0.3 MiB more of it resident);
/// - count references without atomic instructions (`-assume-single-threaded`). Every Swift
///   object of the server lives and dies on the loop thread (docs/threading.md: libuv's
///   thread pool runs C only, and `ThreadingRuleTests` fails on any API that would run Swift
///   code on another thread), so the lock-prefixed increments of `swift_retain` and
///   `swift_release` bought nothing, and they were a fifth of a `loadAd`'s CPU: a load and
///   release pair took 4.2 µs of server CPU with them and 3.6 µs without (bench/README.md).
///   The standard library's own compiled code still counts atomically; both kinds of
///   operation on one object from one thread are correct.
let hotPath: [SwiftSetting] = [
  .unsafeFlags(
    [
      "-enforce-exclusivity=unchecked",
      "-cross-module-optimization",
      "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
      "-Xfrontend", "-assume-single-threaded",
    ], .when(configuration: .release))
]

/// The package's directory (for paths the linker needs whatever its working directory).
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

/// Release builds link libstdc++ (which the Swift runtime needs) statically too: `make deps`
/// links its static archive into `.build/static-libstdc++/`, searched before the system's
/// directories, so `-lstdc++` finds the archive there. One shared library fewer to map and
/// relocate: start-up takes 1.7 M instructions fewer and idle RSS 1 MiB less. Without that
/// directory (a plain `swift build`) the shared library is linked, as before.
let staticCXX: [LinkerSetting] = [
  .unsafeFlags(["-L", packageRoot + "/.build/static-libstdc++"], .when(configuration: .release))
]

/// Release executables are not position-independent: with a fixed load address the
/// linker resolves the Swift metadata's ~19,000 pointers itself, so no page of them is
/// written at start-up. Each process then keeps ~0.7 MiB less private memory (what a fleet
/// of dozens of processes pays for) and starts 0.26 M instructions sooner. The price is that
/// the executable's own code is not placed at a random address (its libraries still are);
/// `NATIVE_ADS_PIE=1 make release` builds a position-independent executable instead. (`make
/// release` links a static executable, `-static-executable`, when `make deps` found libuv's
/// static archive: that is position-dependent anyway, and links the C library, libuv and
/// libstdc++ statically too.)
let positionDependent: [LinkerSetting] =
  Context.environment["NATIVE_ADS_PIE"] == "1"
  ? [] : [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(configuration: .release))]

/// zlib: the static archive in release builds, the shared library in debug builds.
let zlib: [LinkerSetting] = [
  .unsafeFlags(["-Xlinker", "-l:libz.a"], .when(configuration: .release)),
  .linkedLibrary("z", .when(configuration: .debug)),
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
    // zlib's headers; the library is linked by the targets that use it (statically into the
    // release binary: one shared library fewer to map and relocate at start-up).
    .systemLibrary(
      name: "CZlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // hiredis (Debian libhiredis-dev), attached to the loop by the libuv adapter in its shim:
    // statically linked into the release binary, like libuv.
    .systemLibrary(
      name: "CHiredis",
      pkgConfig: "hiredis",
      providers: [.apt(["libhiredis-dev"])]
    ),
    // Node's former HTTP parser (Debian libhttp-parser-dev; no pkg-config file) and OpenSSL's
    // libcrypto (Debian libssl-dev), for the HTTP transport; statically linked into the
    // release binary, like libuv.
    .systemLibrary(name: "CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "UVTransport", dependencies: ["CLibUV"], swiftSettings: hotPath),
    .target(
      name: "HTTPTransport", dependencies: ["CHTTPParser", "CCrypto"], swiftSettings: hotPath),
    .target(
      name: "RedisClient", dependencies: ["CHiredis", "CLibUV", "UVTransport"],
      swiftSettings: hotPath),
    .target(
      name: "PNGImages", dependencies: ["CZlib"],
      resources: [.embedInCode("Resources/prebuilt-pngs.bin")], swiftSettings: hotPath,
      linkerSettings: zlib),
    .target(name: "ByteKeys", swiftSettings: hotPath),
    .target(name: "JSONRPC", dependencies: ["ByteKeys"], swiftSettings: hotPath),
    .target(name: "NativeAds", dependencies: ["PNGImages", "ByteKeys"], swiftSettings: hotPath),
    .target(
      name: "NativeAdsRPC", dependencies: ["ByteKeys", "JSONRPC", "NativeAds"],
      resources: [
        .embedInCode("Resources/builtin-store.json"),
        .embedInCode("Resources/openrpc-examples.json"),
      ], swiftSettings: hotPath),
    .target(
      name: "Fleet",
      dependencies: [
        "NativeAds", "NativeAdsRPC", "JSONRPC", "PNGImages", "RedisClient", "UVTransport",
      ],
      swiftSettings: hotPath),
    .executableTarget(
      name: "native-ads",
      dependencies: [
        "UVTransport", "NativeAdsRPC", "JSONRPC", "NativeAds", "Fleet", "RedisClient",
        "HTTPTransport",
      ],
      resources: [.embedInCode("Resources/inspector.html")],
      swiftSettings: hotPath, linkerSettings: staticCXX + positionDependent
    ),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport"]),
    .target(
      name: "PNGTestSupport", dependencies: ["CZlib"], path: "Tests/PNGTestSupport",
      linkerSettings: zlib),
    .testTarget(name: "PNGImagesTests", dependencies: ["PNGImages", "PNGTestSupport"]),
    .testTarget(name: "NativeAdsTests", dependencies: ["NativeAds", "ByteKeys", "PNGTestSupport"]),
    .testTarget(
      name: "NativeAdsRPCTests",
      dependencies: ["NativeAdsRPC", "JSONRPC", "NativeAds", "PNGImages"]),
    .target(name: "LoopTestSupport", dependencies: ["UVTransport"], path: "Tests/LoopTestSupport"),
    .testTarget(name: "UVTransportTests", dependencies: ["UVTransport", "LoopTestSupport"]),
    .testTarget(
      name: "FleetTests",
      dependencies: ["Fleet", "NativeAds", "NativeAdsRPC", "JSONRPC", "LoopTestSupport"]),
    .testTarget(
      name: "RedisClientTests", dependencies: ["RedisClient", "UVTransport", "LoopTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
