// The RPC methods the client has a call for: wire name → NativeAdsClient method.

export const RPC_TO_CLIENT = {
  loadAd: "loadAd",
  exportAd: "exportAd",
  stringForKey: "stringForKey",
  imageForKey: "imageForKey",
  performClickOnAsset: "performClickOnAsset",
  recordImpression: "recordImpression",
  setCustomClickHandler: "setCustomClickHandler",
  releaseAd: "releaseAd",
  registerAdView: "registerAdView",
  unregisterAdView: "unregisterAdView",
  reportVisibility: "reportVisibility",
  reportScreenDismissed: "reportScreenDismissed",
  muteThisAd: "muteThisAd",
  videoControl: "videoControl",
  getVideoState: "getVideoState",
  getEvents: "getEvents",
  "store.defineFormat": "storeDefineFormat",
  "store.putCreative": "storePutCreative",
  "store.putAdUnit": "storePutAdUnit",
  "store.remove": "storeRemove",
  "store.list": "storeList",
  "inspector.watch": "inspectorWatch",
  "formats.schema": "formatSchema",
  "mediation.registerAdapter": "registerAdapter",
  "mediation.unregisterAdapter": "unregisterAdapter",
  "adapter.reportImpression": "reportImpression",
  "adapter.reportClick": "reportClick",
  "adapter.reportVideoEvent": "reportVideoEvent",
  "adapter.reportFullScreen": "reportFullScreen",
  "rpc.discover": "discover",
  shutdown: "shutdown",
  exit: "exit",
};

/** Documented messages the client sends by itself rather than through a method of its own. */
export const SENT_BY_THE_CLIENT = {
  "$/cancelRequest": "for a request aborted with its signal, or timed out (RequestOptions)",
};
