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
