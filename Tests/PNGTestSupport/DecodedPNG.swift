import CZlib

/// A PNG parsed and decoded by test code: chunks checked (CRC-32, order), IDAT inflated by
/// zlib (which checks the zlib header and the Adler-32 trailer) and unfiltered into RGB rows.
/// Shared by the tests of PNGImages and of NativeAds.
public struct DecodedPNG: Sendable {
  /// Why bytes are not a PNG this decoder accepts.
  public enum Failure: Error, Equatable {
    case badSignature
    case truncated
    case badCRC(String)
    case badChunkOrder([String])
    case unsupportedHeader
    case wrongDecompressedSize(expected: Int, actual: Int)
    case badFilter(Int)
    /// zlib's status and message for a stream it could not inflate.
    case inflate(status: Int32, message: String)
    /// Bytes after the end of the zlib stream.
    case trailingBytes(Int)
  }

  /// The width in pixels (IHDR).
  public var width: Int
  /// The height in pixels (IHDR).
  public var height: Int
  /// The chunk types in file order.
  public var chunkTypes: [String]
  /// The size of the IDAT data (the zlib stream).
  public var compressedSize: Int
  /// The size of the inflated IDAT data: a filter byte and ``bytesPerRow`` bytes a row.
  public var decompressedSize: Int
  /// Bytes of one row before filtering (without the filter byte).
  public var bytesPerRow: Int
  /// The filter type of each row (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth).
  public var filters: [UInt8]
  /// RGB bytes, row by row, `width * 3` bytes a row.
  public var pixels: [UInt8]

  /// The RGB bytes of the pixel at (`column`, `row`).
  public func color(column: Int, row: Int) -> [UInt8] {
    let start = (row * width + column) * 3
    return Array(pixels[start..<start + 3])
  }

  /// Parses and decodes `png`.
  public init(_ png: [UInt8]) throws(Failure) {
    guard png.count > 8, Array(png[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else {
      throw .badSignature
    }
    func u32(_ at: Int) -> Int {
      Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
    }
    var offset = 8
    var types: [String] = []
    var header: [UInt8] = []
    var palette: [UInt8] = []
    var idat: [UInt8] = []
    while offset < png.count {
      guard offset + 12 <= png.count else { throw .truncated }
      let length = u32(offset)
      guard offset + 12 + length <= png.count else { throw .truncated }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      let body = Array(png[offset + 8..<offset + 8 + length])
      let crc = UInt32(u32(offset + 8 + length))
      guard crc == Self.crc32(png[offset + 4..<offset + 8 + length]) else {
        throw .badCRC(type)
      }
      types.append(type)
      if type == "IHDR" { header = body }
      if type == "IDAT" { idat += body }
      if type == "PLTE" { palette = body }
      offset += 12 + length
    }
    guard types.first == "IHDR", types.last == "IEND", types.contains("IDAT") else {
      throw .badChunkOrder(types)
    }
    guard header.count == 13 else { throw .unsupportedHeader }
    let width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
    let height =
      Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
    // 8-bit truecolour, or indexed colour of bit depth 1, 2, 4 or 8; deflate, adaptive
    // filtering, no interlace.
    let depth = Int(header[8])
    let indexed = header[9] == 3
    guard Array(header[10..<13]) == [0, 0, 0],
      (header[9] == 2 && depth == 8) || (indexed && [1, 2, 4, 8].contains(depth)),
      !indexed || (palette.count % 3 == 0 && palette.count >= 3)
    else { throw .unsupportedHeader }

    let raw = try Self.inflate(idat)
    let bytesPerPixel = indexed ? 1 : 3
    let stride = indexed ? (width * depth + 7) / 8 : width * 3
    guard raw.count == height * (stride + 1) else {
      throw .wrongDecompressedSize(expected: height * (stride + 1), actual: raw.count)
    }
    var unfiltered = [UInt8](repeating: 0, count: height * stride)
    var filters: [UInt8] = []
    for row in 0..<height {
      let filter = Int(raw[row * (stride + 1)])
      filters.append(UInt8(filter))
      for index in 0..<stride {
        let x = raw[row * (stride + 1) + 1 + index]
        let a = index >= bytesPerPixel ? unfiltered[row * stride + index - bytesPerPixel] : 0
        let b = row > 0 ? unfiltered[(row - 1) * stride + index] : 0
        let c =
          row > 0 && index >= bytesPerPixel
          ? unfiltered[(row - 1) * stride + index - bytesPerPixel] : 0
        let predictor: UInt8
        switch filter {
        case 0: predictor = 0
        case 1: predictor = a
        case 2: predictor = b
        case 3: predictor = UInt8((Int(a) + Int(b)) / 2)
        case 4:
          let p = Int(a) + Int(b) - Int(c)
          let pa = abs(p - Int(a))
          let pb = abs(p - Int(b))
          let pc = abs(p - Int(c))
          predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: throw .badFilter(filter)
        }
        unfiltered[row * stride + index] = x &+ predictor
      }
    }
    var pixels: [UInt8]
    if indexed {
      pixels = []
      pixels.reserveCapacity(width * height * 3)
      let perByte = 8 / depth
      let mask = (1 << depth) - 1
      for row in 0..<height {
        for column in 0..<width {
          let byte = Int(unfiltered[row * stride + column / perByte])
          let shift = 8 - depth * (column % perByte + 1)
          let entry = (byte >> shift) & mask
          guard entry * 3 + 2 < palette.count else { throw .unsupportedHeader }
          pixels.append(contentsOf: palette[entry * 3..<entry * 3 + 3])
        }
      }
    } else {
      pixels = unfiltered
    }
    self.bytesPerRow = stride
    self.width = width
    self.height = height
    self.chunkTypes = types
    self.compressedSize = idat.count
    self.decompressedSize = raw.count
    self.filters = filters
    self.pixels = pixels
  }

  /// zlib's CRC-32 of `bytes`.
  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, UInt32($0.count))) }
  }

  /// Inflates a whole zlib stream with zlib; any error in it (header, data, Adler-32) or bytes
  /// after its end are a failure.
  static func inflate(_ input: [UInt8]) throws(Failure) -> [UInt8] {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      inflateEnd(stream)
      stream.deallocate()
    }
    var status = czlib_inflateInit(stream)
    guard status == Z_OK else { throw .inflate(status: status, message: "inflateInit") }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var consumed = 0
    input.withUnsafeBufferPointer { input in
      stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.pointee.avail_in = UInt32(input.count)
      repeat {
        chunk.withUnsafeMutableBufferPointer { chunk in
          stream.pointee.next_out = chunk.baseAddress
          stream.pointee.avail_out = UInt32(chunk.count)
          status = CZlib.inflate(stream, Z_NO_FLUSH)
          output += chunk[..<(chunk.count - Int(stream.pointee.avail_out))]
        }
      } while status == Z_OK
      consumed = input.count - Int(stream.pointee.avail_in)
    }
    guard status == Z_STREAM_END else {
      let message = stream.pointee.msg.map { String(cString: $0) } ?? "truncated"
      throw .inflate(status: status, message: message)
    }
    guard consumed == input.count else { throw .trailingBytes(input.count - consumed) }
    return output
  }
}
