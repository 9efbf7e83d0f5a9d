#!/usr/bin/env node
// node_server.js: a "typical" Node.js implementation of the native-ads core methods, used by
// the benchmark as the baseline (bench/run.py). No npm packages: the `net` module (or stdin and
// stdout), JSON.parse / JSON.stringify per message, one write per reply. Both framings of the
// contract, detected per connection from the first non-whitespace byte as native-ads does:
// `{` or `[` is NDJSON (split on '\n' of a utf8 string), anything else LSP-style
// `Content-Length: N` headers (bytes: a Buffer is kept until a whole message is in).
//
// Methods: loadAd, stringForKey, imageForKey, recordImpression, performClickOnAsset, releaseAd,
// over the built-in unit "/21775744923/example/native" (the same three creatives as the real
// server's built-in inventory). Images are PNGs generated once at start-up (zlib.deflateSync of a
// flat picture, Sub-filtered rows, fixed Huffman codes, so their sizes match the real server's:
// ~0.6 KB for a 128x128 icon, ~15 KB for a 1200x627 image) and base64-encoded on every reply,
// as a typical implementation would.
//
//   node node_server.js [--tcp HOST:PORT]     (default 127.0.0.1:0; prints "listening on ...")
//   node node_server.js --stdio               (stdin/stdout; exits at stdin EOF)
//   either with [--images LOADAD_REPLY_FILE]  (serve the image bytes of that reply)
'use strict';
const net = require('net');
const zlib = require('zlib');
const crypto = require('crypto');
const { StringDecoder } = require('string_decoder');

// ---------- PNG ----------
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
// A flat picture: background, a band along the bottom, a contrasting rectangle.
function placeholderPNG(w, h, colorKey, shapeKey) {
  const ch = hash(colorKey), sh = hash(shapeKey);
  const bg = [80 + (ch & 0x7f), 80 + ((ch >> 8) & 0x7f), 80 + ((ch >> 16) & 0x7f)];
  const acc = bg.map((v) => v >> 2);
  const band = bg.map((v, i) => (v + acc[i]) >> 1);
  const bandH = Math.floor(h / 6), rw = Math.max(1, Math.floor((w * 2) / 5)), rh = Math.max(1, Math.floor((h * 2) / 5));
  const rx = Math.floor(((w - rw) * (sh % 101)) / 100), ry = Math.floor((Math.max(0, h - bandH - rh) * ((sh >> 8) % 101)) / 100);
  const rowBytes = w * 3, raw = Buffer.alloc(h * (rowBytes + 1));
  let prev = null;
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(rowBytes);
    for (let x = 0; x < w; x++) {
      let c = y >= h - bandH ? band : bg;
      if (x >= rx && x < rx + rw && y >= ry && y < ry + rh) c = acc;
      row[x * 3] = c[0]; row[x * 3 + 1] = c[1]; row[x * 3 + 2] = c[2];
    }
    const o = y * (rowBytes + 1);
    if (prev && row.equals(prev)) raw[o] = 2; // Up: all zeros
    else {
      raw[o] = 1; // Sub
      for (let i = 0; i < rowBytes; i++) raw[o + 1 + i] = i < 3 ? row[i] : (row[i] - row[i - 3]) & 0xff;
    }
    prev = row;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const idat = zlib.deflateSync(raw, { strategy: zlib.constants.Z_FIXED });
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0)),
  ]);
}
// `--images FILE` (a loadAd reply of native-ads): serve the very same image bytes, so that both
// servers send replies of the same size and the comparison is about the work, not the payload.
const sameImages = new Map();
{
  const at = process.argv.indexOf('--images');
  if (at !== -1 && process.argv[at + 1] && require('fs').existsSync(process.argv[at + 1])) {
    const walk = (v) => {
      if (v && typeof v === 'object') {
        if (typeof v.url === 'string' && typeof v.data === 'string') sameImages.set(v.url, Buffer.from(v.data, 'base64'));
        for (const k of Object.keys(v)) walk(v[k]);
      }
    };
    walk(JSON.parse(require('fs').readFileSync(process.argv[at + 1], 'utf8')));
  }
}
function image(creativeID, name, width, height) {
  const url = `https://static.native-ads.test/creatives/${creativeID}/${name}.png`;
  return {
    url, scale: 1, width, height,
    bytes: sameImages.get(url) || placeholderPNG(width, height, creativeID, name),
  };
}

// ---------- inventory ----------
const UNIT = '/21775744923/example/native';
const FORMAT_ID = '10063170';
const creatives = [];
{
  const id = 'native-app-install-1';
  const images = [image(id, 'image1', 1200, 627), image(id, 'image2', 627, 627)];
  creatives.push({
    id, kind: 'native', priority: 10, eCPM: 2.0,
    assets: {
      headline: 'Flood-It! 2', body: 'Fill the board with a single colour before you run out of moves.',
      callToAction: 'Install', store: 'Google Play', price: 'Free', advertiser: null, starRating: 4.5,
      icon: image(id, 'icon', 128, 128), images,
    },
    media: { aspectRatio: 1200 / 627, hasVideoContent: false, duration: 0, mainImage: images[0] },
    deepLinks: ['market://details?id=com.labpixies.flood'],
    landingPageURL: 'https://play.google.com/store/apps/details?id=com.labpixies.flood',
  });
}
{
  const id = 'native-content-1';
  const images = [image(id, 'image1', 1200, 627), image(id, 'image2', 800, 800)];
  creatives.push({
    id, kind: 'native', priority: 5, eCPM: 1.5,
    assets: {
      headline: 'Mobile Ads, Made Simple', body: 'Monetise your app with native ads that match its look and feel.',
      callToAction: 'Learn more', store: null, price: null, advertiser: 'Google', starRating: null,
      icon: image(id, 'icon', 128, 128), images,
    },
    media: { aspectRatio: 1200 / 627, hasVideoContent: false, duration: 0, mainImage: images[0] },
    deepLinks: [], landingPageURL: 'https://developers.google.com/admob/ios/native',
  });
}
{
  const id = 'custom-10063170-1';
  creatives.push({
    id, kind: 'customNative', formatID: FORMAT_ID, priority: 8, eCPM: 1.8, hasCustomClickAction: true,
    assets: {
      Headline: 'Custom Native Ad Headline', MainImage: image(id, 'MainImage', 1200, 627),
      Caption: 'A custom native format served by Ad Manager',
    },
    media: { aspectRatio: 0, hasVideoContent: false, duration: 0, mainImage: null },
    deepLinks: ['gadexample://custom/10063170'],
    landingPageURL: 'https://developers.google.com/ad-manager/mobile-ads-sdk/ios/native/custom-formats',
  });
}
const adUnits = new Map([[UNIT, creatives]]);
const TEXT_KEYS = ['headline', 'body', 'callToAction', 'store', 'price', 'advertiser'];

// ---------- ads ----------
const ads = new Map(); // adId -> {creative, options, conn, impression, customClick}
let adCounter = 0;
const session = crypto.randomBytes(3).toString('hex');

class RPCError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}
const invalidParams = (field, what) => new RPCError(-32602, `Invalid params: ${field} ${what}`, { field });

function imageJSON(img, options) {
  if (!img) return null;
  const out = { url: img.url, scale: img.scale, width: img.width, height: img.height };
  if (!options.disableImageLoading) {
    out.data = img.bytes.toString('base64');
    out.mimeType = 'image/png';
  }
  return out;
}

function responseInfo(latency) {
  const info = { adNetworkClassName: 'GADMAdapterGoogleAdMobAds', adSourceName: 'Reservation', latency, error: null };
  return { responseIdentifier: crypto.randomBytes(12).toString('base64url'), loadedAdNetworkResponseInfo: info, adNetworkInfoArray: [info] };
}

function adJSON(adId, c, options, info) {
  const ad = { adId, kind: c.kind };
  if (c.kind === 'native') {
    const a = c.assets;
    Object.assign(ad, {
      headline: a.headline, body: a.body, callToAction: a.callToAction, store: a.store, price: a.price,
      advertiser: a.advertiser, starRating: a.starRating, icon: imageJSON(a.icon, options),
      images: (options.shouldRequestMultipleImages ? a.images : a.images.slice(0, 1)).map((i) => imageJSON(i, options)),
      extraAssets: {},
    });
  } else {
    ad.formatID = c.formatID;
    ad.availableAssetKeys = Object.keys(c.assets);
  }
  ad.mediaContent = {
    aspectRatio: c.media.aspectRatio, hasVideoContent: c.media.hasVideoContent, duration: c.media.duration,
    currentTime: 0, mainImage: imageJSON(c.media.mainImage, options),
  };
  ad.adChoices = null;
  ad.responseInfo = info;
  ad.expiresAt = new Date(Date.now() + 3600e3).toISOString().replace(/\.\d+Z$/, 'Z');
  return ad;
}

function obj(p) { return p !== null && typeof p === 'object' && !Array.isArray(p); }
function reqString(p, k) {
  if (typeof p[k] !== 'string') throw invalidParams(k, 'must be a string');
  return p[k];
}
function lookup(p) {
  const adId = reqString(p, 'adId');
  const ad = ads.get(adId);
  if (!ad) throw new RPCError(2001, `Ad not found: ${adId}`, { name: 'adNotFound' });
  return [adId, ad];
}

const methods = {
  loadAd(p, conn) {
    const start = process.hrtime.bigint();
    const unit = reqString(p, 'adUnitID');
    const adTypes = p.adTypes == null ? ['native'] : p.adTypes;
    if (!Array.isArray(adTypes) || adTypes.some((t) => t !== 'native' && t !== 'customNative'))
      throw invalidParams('adTypes', 'must be an array of "native", "customNative"');
    const formatIDs = p.customNativeAdFormatIDs == null ? [] : p.customNativeAdFormatIDs;
    if (!Array.isArray(formatIDs) || formatIDs.some((f) => typeof f !== 'string'))
      throw invalidParams('customNativeAdFormatIDs', 'must be an array of strings');
    const o = p.options == null ? {} : p.options;
    if (!obj(o)) throw invalidParams('options', 'must be an object');
    for (const k of ['disableImageLoading', 'shouldRequestMultipleImages', 'startMuted', 'customControlsRequested', 'clickToExpandRequested'])
      if (o[k] != null && typeof o[k] !== 'boolean') throw invalidParams(`options.${k}`, 'must be a boolean');
    if (o.numberOfAds != null && !Number.isInteger(o.numberOfAds)) throw invalidParams('options.numberOfAds', 'must be an integer');
    const options = {
      disableImageLoading: !!o.disableImageLoading, shouldRequestMultipleImages: !!o.shouldRequestMultipleImages,
      numberOfAds: Math.min(5, o.numberOfAds == null ? 1 : o.numberOfAds),
    };
    const loadError = (code, name, msg) => new RPCError(1000 + code, msg, { gadErrorCode: code, name, responseInfo: responseInfo(0) });
    const pool = adUnits.get(unit);
    if (!pool) throw loadError(0, 'invalidRequest', `Unknown ad unit: ${unit}`);
    if (options.numberOfAds < 1) throw loadError(0, 'invalidRequest', 'numberOfAds must be at least 1');
    if (adTypes.length === 0) throw loadError(0, 'invalidRequest', 'No ad types requested');
    if (adTypes.includes('customNative') && formatIDs.length === 0) throw loadError(0, 'invalidRequest', 'customNative needs format IDs');
    const eligible = pool
      .filter((c) => (c.kind === 'native' ? adTypes.includes('native') : adTypes.includes('customNative') && formatIDs.includes(c.formatID)))
      .sort((a, b) => b.priority - a.priority || b.eCPM - a.eCPM)
      .slice(0, options.numberOfAds);
    if (eligible.length === 0) throw loadError(1, 'noFill', 'No ad to show');
    const info = responseInfo(Number(process.hrtime.bigint() - start) / 1e9);
    const out = eligible.map((c) => {
      const adId = `ad-${session}-${++adCounter}`;
      const ad = { creative: c, options, conn, impression: false, customClick: false };
      ads.set(adId, ad);
      conn.ads.add(adId);
      return adJSON(adId, c, options, info);
    });
    return { ads: out, responseInfo: info };
  },
  stringForKey(p) {
    const [, ad] = lookup(p);
    const key = reqString(p, 'key');
    const c = ad.creative;
    if (c.kind === 'native') return TEXT_KEYS.includes(key) ? c.assets[key] ?? null : null;
    const v = c.assets[key];
    return typeof v === 'string' ? v : null;
  },
  imageForKey(p) {
    const [, ad] = lookup(p);
    const key = reqString(p, 'key');
    const c = ad.creative;
    let img = null;
    if (c.kind === 'native') img = key === 'icon' ? c.assets.icon : key === 'image' ? c.assets.images[0] : null;
    else if (obj(c.assets[key])) img = c.assets[key];
    return imageJSON(img, ad.options);
  },
  recordImpression(p) {
    const [adId, ad] = lookup(p);
    if (ad.impression) return { recorded: false };
    ad.impression = true;
    notify(ad.conn, 'adEvent', { adId, event: 'didRecordImpression', assetKey: null });
    return { recorded: true };
  },
  performClickOnAsset(p) {
    const [adId, ad] = lookup(p);
    const key = reqString(p, 'key');
    const schemes = p.openableURLSchemes == null ? [] : p.openableURLSchemes;
    if (!Array.isArray(schemes)) throw invalidParams('openableURLSchemes', 'must be an array of strings');
    const c = ad.creative;
    const has = c.kind === 'native' ? c.assets[key] != null || key === 'image' || key === 'mediaView' : key in c.assets;
    if (!has) throw new RPCError(2002, `Asset not found: ${key}`, { name: 'assetNotFound' });
    notify(ad.conn, 'adEvent', { adId, event: 'didRecordClick', assetKey: key });
    if (c.hasCustomClickAction && ad.customClick) {
      notify(ad.conn, 'customClick', { adId, assetID: key });
      return { recorded: true, action: 'customClickHandler', url: null };
    }
    const deep = c.deepLinks.find((u) => schemes.includes(u.slice(0, u.indexOf(':'))));
    if (deep) return { recorded: true, action: 'deepLink', url: deep };
    return { recorded: true, action: 'landingPage', url: c.landingPageURL };
  },
  releaseAd(p) {
    const [adId, ad] = lookup(p);
    ads.delete(adId);
    ad.conn.ads.delete(adId);
    return { released: true };
  },
};

function notify(conn, method, params) {
  conn.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
}

function handle(msg, conn) {
  if (!obj(msg) || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
    const id = obj(msg) && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : null;
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } };
  }
  const isNotification = !('id' in msg);
  let reply;
  try {
    const fn = Object.prototype.hasOwnProperty.call(methods, msg.method) ? methods[msg.method] : null;
    if (!fn) throw new RPCError(-32601, 'Method not found');
    const params = msg.params === undefined ? {} : msg.params;
    if (Array.isArray(params)) throw new RPCError(-32602, 'Invalid params');
    if (!obj(params)) throw new RPCError(-32600, 'Invalid Request');
    reply = { jsonrpc: '2.0', id: msg.id, result: fn(params, conn) };
  } catch (e) {
    const error = e instanceof RPCError ? { code: e.code, message: e.message } : { code: -32603, message: 'Internal error' };
    if (e instanceof RPCError && e.data !== undefined) error.data = e.data;
    reply = { jsonrpc: '2.0', id: msg.id ?? null, error };
  }
  return isNotification ? null : reply;
}

function onLine(line, conn) {
  if (line.trim() === '') return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    conn.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    return;
  }
  let reply;
  if (Array.isArray(msg)) {
    if (msg.length === 0) reply = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };
    else {
      reply = msg.map((m) => handle(m, conn)).filter((r) => r !== null);
      if (reply.length === 0) return;
    }
  } else {
    reply = handle(msg, conn);
    if (reply === null) return;
  }
  conn.send(JSON.stringify(reply));
}

// A connection: `write` sends bytes; the framing is chosen by the first non-whitespace byte.
function connection(write, isOpen) {
  const conn = { ads: new Set(), framing: null, send: null };
  let pending = '';        // NDJSON: the unfinished line
  const decoder = new StringDecoder('utf8');
  let buf = Buffer.alloc(0); // Content-Length: bytes not yet made into a message
  const sendLine = (s) => { if (isOpen()) write(s + '\n'); };
  const sendFramed = (s) => { if (isOpen()) write(`Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`); };
  conn.onData = (data) => {
    if (conn.framing === null) {
      const m = /[^ \t\r\n]/.exec(data.toString('latin1'));
      if (!m) return;
      conn.framing = data[m.index] === 0x7b || data[m.index] === 0x5b ? 'ndjson' : 'cl';
      conn.send = conn.framing === 'ndjson' ? sendLine : sendFramed;
    }
    if (conn.framing === 'ndjson') {
      pending += decoder.write(data);
      let nl;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        onLine(line, conn);
      }
      return;
    }
    buf = buf.length ? Buffer.concat([buf, data]) : data;
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) return;
      const m = /(?:^|\r\n)content-length:[ \t]*(\d+)/i.exec(buf.toString('latin1', 0, end));
      if (!m) { conn.close(); return; }
      const start = end + 4, len = Number(m[1]);
      if (buf.length < start + len) return;
      const body = buf.toString('utf8', start, start + len);
      buf = buf.subarray(start + len);
      onLine(body, conn);
    }
  };
  conn.onClose = () => {
    for (const id of conn.ads) ads.delete(id);
  };
  return conn;
}

if (process.argv.includes('--stdio')) {
  const conn = connection((s) => process.stdout.write(s), () => true);
  conn.close = () => process.exit(1);
  process.stdin.on('data', conn.onData);
  process.stdin.on('end', () => { conn.onClose(); process.exit(0); });
  process.stdout.on('error', () => process.exit(0));
} else {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const conn = connection((s) => socket.write(s), () => !socket.destroyed);
    conn.close = () => socket.destroy();
    socket.on('data', conn.onData);
    socket.on('error', () => {});
    socket.on('close', conn.onClose);
  });
  let spec = '127.0.0.1:0';
  const i = process.argv.indexOf('--tcp');
  if (i !== -1 && process.argv[i + 1]) spec = process.argv[i + 1];
  const colon = spec.lastIndexOf(':');
  const host = spec.slice(0, colon), port = Number(spec.slice(colon + 1));
  server.listen(port, host, () => {
    process.stderr.write(`listening on ${host}:${server.address().port}\n`);
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { server.close(); process.exit(0); });
}
