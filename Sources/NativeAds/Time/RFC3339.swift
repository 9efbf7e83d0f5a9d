/// Formats a time as an RFC 3339 UTC timestamp with whole seconds, e.g.
/// `2026-11-30T01:48:20Z`. Fractions of a second are dropped (rounded down, also before 1970).
///
/// Used for an ad's `expiresAt` on the wire. Pure; callable from any thread.
public func formatRFC3339(_ secondsSinceEpoch: Double) -> String {
  let total = Int64(secondsSinceEpoch.rounded(.down))
  var days = total / 86_400
  var secondOfDay = total % 86_400
  if secondOfDay < 0 {
    secondOfDay += 86_400
    days -= 1
  }
  // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
  let z = days + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let monthIndex = (5 * dayOfYear + 2) / 153
  let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
  let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
  let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

  func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
  let hour = secondOfDay / 3600
  let minute = secondOfDay % 3600 / 60
  let second = secondOfDay % 60
  let yearText = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
  return
    "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
}
