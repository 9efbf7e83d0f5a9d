// Compiled with `tsc -p test/typecheck` (no emit, no @types/node, no DOM): the published
// declarations in dist/ must be usable on their own, and typed the way the README says.
import {
  AdapterError,
  AdLoadError,
  InvalidParamsError,
  NativeAdsClient,
  NativeAdsError,
  RequestCancelledError,
  type AbortSignalLike,
  type Ad,
  type AdEventNotification,
  type ClickResult,
  type Image,
  type MappedAd,
  type OpenRTBNativeRequest,
  type OpenRTBNativeResponse,
  type RequestOptions,
  type ResponseInfo,
} from "../../dist/index.js";

export async function usage(path: string): Promise<void> {
  const client = await NativeAdsClient.spawn({ path, framing: "content-length", listen: "127.0.0.1:0" });
  const tcp = await NativeAdsClient.connect({ port: client.tcpAddress?.port ?? 0, framing: "ndjson" });
  client.on("adEvent", (e: AdEventNotification) => e.assetKey?.toUpperCase());
  client.on("adapter.didRender", (r) => r.clickableAssets.join(","));
  const { ads, responseInfo } = await client.loadAd({ adUnitID: "x", options: { numberOfAds: 2, mediaAspectRatio: "square" } });
  const info: ResponseInfo = responseInfo;
  const first: Ad | undefined = ads[0];
  if (first?.kind === "native") {
    const headline: string = first.headline;
    const icon: Image | null = first.icon;
    void headline, icon;
  } else if (first) {
    const keys: string[] = first.availableAssetKeys;
    void keys;
  }
  const click: ClickResult = await client.performClickOnAsset("ad", "headline", { openableURLSchemes: ["myapp"] });
  const action: "customClickHandler" | "deepLink" | "landingPage" | "adChoices" | "adapter" | "none" = click.action;
  const event = await client.waitFor("customClick", (c) => c.assetID === "Headline");
  const text: string | null = await client.stringForKey(event.adId, "Headline");
  await client.serveAdapter("Net", async (load): Promise<MappedAd> => {
    if (load.parameter === "") throw AdapterError.networkError("offline");
    return { headline: load.adConfiguration.options.mediaAspectRatio };
  });
  try {
    await tcp.getEvents({ limit: 10 });
  } catch (e) {
    if (e instanceof AdLoadError) e.responseInfo?.adNetworkInfoArray.map((n) => n.error?.code);
    if (e instanceof InvalidParamsError) e.field?.length;
    if (e instanceof NativeAdsError) e.kind === "closed";
  }
  void info, action, text;
  await tcp.close();
  await client.close();
}

/** OpenRTB Native 1.2: response strings, exportAd, trackers, typed as the README says. */
export async function openrtb(client: NativeAdsClient, adId: string): Promise<void> {
  const nativeRequest: OpenRTBNativeRequest = { ver: "1.2", assets: [{ id: 1, required: 1, title: { len: 25 } }] };
  const exported: OpenRTBNativeResponse = await client.exportAd(adId);
  const again = await client.exportAd(adId, "openrtb-native-1.2", { timeoutMs: 1000 });
  const title: string | undefined = exported.assets?.[0]?.title?.text;
  const { ads } = await client.loadAd({ adUnitID: "x", adResponseString: JSON.stringify(exported), nativeRequest });
  await client.loadAd({ adUnitID: "x", adResponseString: "{}", nativeRequest: JSON.stringify(nativeRequest) });
  const impression: string[] | undefined = (await client.recordImpression(ads[0]?.adId ?? adId)).trackingURLs;
  const click: string[] | undefined = (await client.performClickOnAsset(adId, "headline")).trackingURLs;
  const visible: string[] | undefined = (await client.reportVisibility(adId, 1)).trackingURLs;
  for (const e of (await client.getEvents({ event: "tracker" })).events) {
    if (e.type === "tracker") {
      const trigger: "impression" | "click" | undefined = e.trigger;
      const url: string | undefined = e.url;
      void trigger, url;
    }
  }
  await client.storePutCreative({ id: "rtb-1", openrtb: exported, eCPM: 2.5, priority: 1 });
  try {
    await client.loadAd({ adUnitID: "x", adResponseString: "not json" });
  } catch (e) {
    if (e instanceof AdLoadError && e.code === 1013) e.field?.startsWith("native.");
  }
  void again, title, impression, click, visible;
}

/** Unix sockets, cancellation and the lifecycle, typed as the README says. */
export async function lifecycle(path: string, signal: AbortSignalLike): Promise<void> {
  const owner = await NativeAdsClient.spawn({ path, unix: "/tmp/native-ads.sock" });
  const socketPath: string | undefined = owner.unixPath;
  const client = await NativeAdsClient.connect({ socketPath: socketPath ?? "/tmp/native-ads.sock", framing: "content-length" });
  const options: RequestOptions = { signal, timeoutMs: 5000 };
  await client.loadAd({ adUnitID: "x" }, options);
  await client.performClickOnAsset("ad", "headline", { openableURLSchemes: ["myapp"] }, { signal });
  await client.request("store.list", {}, { timeoutMs: 0 });
  try {
    await client.storeList({ signal });
  } catch (e) {
    if (e instanceof RequestCancelledError) e.kind === "cancelled";
    if (e instanceof NativeAdsError && e.kind === "timeout") e.method?.length;
  }
  const result: null = await owner.shutdown();
  owner.exit();
  void result;
  await client.close();
  await owner.close();
}
