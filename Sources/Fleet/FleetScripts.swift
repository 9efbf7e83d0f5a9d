import RedisClient

/// The Lua scripts that make each fleet write atomic (Redis runs a script alone). Each touches
/// the keys it declares, which share one hash tag, so every script also runs on Redis Cluster.
/// Run by ``FleetRedis/run(_:keys:arguments:completion:)`` with `EVALSHA`, sent as `EVAL` once
/// when the server does not have it (after a restart).
struct FleetScript: Sendable {
  let name: String
  let body: String

  /// The ad as stored: nil when it is gone; else `[v, st, rec, ob, ov]` where `st` is nil when
  /// the caller's `known` version is current and `rec` is sent only when asked for.
  /// KEYS: ad. ARGV: known version ("" for none), "1" to want the record.
  static let fetch = FleetScript(
    name: "fetch",
    body: """
      local v = redis.call('HGET', KEYS[1], 'v')
      if not v then return false end
      local st = false
      if v ~= ARGV[1] then st = redis.call('HGET', KEYS[1], 'st') end
      local rec = false
      if ARGV[2] == '1' then rec = redis.call('HGET', KEYS[1], 'rec') end
      local ob = redis.call('HMGET', KEYS[1], 'ob', 'ov')
      return {v, st, rec, ob[1], ob[2]}
      """)

  /// Keeps a newly loaded ad at version 1, until its expiry time (ms since the epoch).
  /// KEYS: ad. ARGV: record, state, expire-at ms.
  static let insert = FleetScript(
    name: "insert",
    body: """
      redis.call('HSET', KEYS[1], 'rec', ARGV[1], 'st', ARGV[2], 'v', 1)
      redis.call('PEXPIREAT', KEYS[1], ARGV[3])
      return 1
      """)

  /// Compare and set: the new state (and its outbox) replaces version `expected`, or the
  /// current one comes back. `{1, newVersion}` when applied; `{0, v, st, ob, ov}` when the
  /// version moved; `{-1}` when the ad is gone. A release deletes the ad.
  /// KEYS: ad. ARGV: expected version, state, outbox ("" for none), "1" to release.
  static let compareAndSet = FleetScript(
    name: "compareAndSet",
    body: """
      local v = redis.call('HGET', KEYS[1], 'v')
      if not v then return {-1} end
      if v ~= ARGV[1] then
        local cur = redis.call('HMGET', KEYS[1], 'st', 'ob', 'ov')
        return {0, v, cur[1], cur[2], cur[3]}
      end
      local nv = tonumber(v) + 1
      if ARGV[4] == '1' then
        redis.call('DEL', KEYS[1])
        return {1, nv}
      end
      redis.call('HSET', KEYS[1], 'st', ARGV[2], 'v', nv)
      if ARGV[3] ~= '' then
        redis.call('HSET', KEYS[1], 'ob', ARGV[3], 'ov', nv)
      else
        redis.call('HDEL', KEYS[1], 'ob', 'ov')
      end
      return {1, nv}
      """)

  /// Publishes the outbox of an ad's change to version `v`, once however many processes try:
  /// numbers its events, stamps them with the time of Redis (never earlier than the last
  /// event's, so that times follow the one order), appends them to the fleet's log, and puts
  /// what belongs to other processes in their inboxes. Answers the events' sequence numbers,
  /// or nil when that version (or a later one) was published already.
  /// KEYS: sequence, events, published marker, last event time, then one inbox per target of
  /// the outbox. ARGV: v, max events kept, the publishing process, marker lifetime ms, outbox
  /// JSON.
  static let publish = FleetScript(
    name: "publish",
    body: """
      local last = tonumber(redis.call('GET', KEYS[3]) or '0')
      local v = tonumber(ARGV[1])
      if last >= v then return false end
      local ob = cjson.decode(ARGV[5])
      local inbox = {}
      for i, target in ipairs(ob.targets) do inbox[target] = KEYS[4 + i] end
      local clock = redis.call('TIME')
      local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
      local before = tonumber(redis.call('GET', KEYS[4]) or '0')
      if now < before then now = before end
      local t = string.format('%.6f', now)
      redis.call('SET', KEYS[4], t)
      local seqs = {}
      for i, e in ipairs(ob.events) do
        local n = redis.call('INCR', KEYS[1])
        seqs[i] = n
        redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], n .. '-1', 'e', e.json, 't', t)
        if e.to ~= ARGV[3] then
          redis.call('XADD', inbox[e.to], 'MAXLEN', '~', 100000, '*', 'k', 'event', 's', n,
            'e', e.json, 't', t)
        end
      end
      for _, note in ipairs(ob.notes) do
        if note.to ~= ARGV[3] then
          redis.call('XADD', inbox[note.to], 'MAXLEN', '~', 100000, '*', 'k', note.k, 'e',
            note.json)
        end
      end
      for i = 5, #KEYS do redis.call('PEXPIRE', KEYS[i], 86400000) end
      redis.call('SET', KEYS[3], v, 'PX', ARGV[4])
      return seqs
      """)

  /// Drops the outbox of version `v` once it is published (a later change may have replaced
  /// it already). KEYS: ad. ARGV: v.
  static let clearOutbox = FleetScript(
    name: "clearOutbox",
    body: """
      if redis.call('HGET', KEYS[1], 'ov') == ARGV[1] then
        redis.call('HDEL', KEYS[1], 'ob', 'ov')
      end
      return 1
      """)

  /// The store log's length, and its entries from `from` on: `{count, entry...}`.
  /// KEYS: store changes. ARGV: from.
  static let storeEntries = FleetScript(
    name: "storeEntries",
    body: """
      local n = redis.call('LLEN', KEYS[1])
      local from = tonumber(ARGV[1])
      if n <= from then return {n} end
      local out = redis.call('LRANGE', KEYS[1], from, -1)
      table.insert(out, 1, n)
      return out
      """)

  /// Appends a store change as entry `index` if the log holds exactly that many: 1, else 0.
  /// KEYS: store changes. ARGV: index, entry.
  static let storeAppend = FleetScript(
    name: "storeAppend",
    body: """
      if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
      redis.call('RPUSH', KEYS[1], ARGV[2])
      return 1
      """)

  /// Makes `ARGV[1]` the fleet's start-up store if it has none: nil when it did, else the
  /// store the fleet has. KEYS: store base.
  static let claimStore = FleetScript(
    name: "claimStore",
    body: """
      if redis.call('SETNX', KEYS[1], ARGV[1]) == 1 then return false end
      return redis.call('GET', KEYS[1])
      """)

  static let all = [
    fetch, insert, compareAndSet, publish, clearOutbox, storeEntries, storeAppend, claimStore,
  ]
}
