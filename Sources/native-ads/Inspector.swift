import HTTPTransport

/// The inspector page (`GET /`): one HTML file with its CSS and JavaScript inline
/// (`Resources/inspector.html`, embedded in the binary). It talks to the server over the
/// WebSocket at `/rpc` and fetches nothing else: no CDN, no font, no framework.
enum Inspector {
  static let page = HTTPResponse(
    status: 200,
    headers: [
      ("Content-Type", "text/html; charset=utf-8"),
      ("Cache-Control", "no-store"),
      // Only its own inline code, pictures given as data: URLs, and this server's WebSocket.
      (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          + "img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
          + "frame-ancestors 'none'"
      ),
      ("X-Content-Type-Options", "nosniff"),
      ("Referrer-Policy", "no-referrer"),
    ],
    body: PackageResources.inspector_html)
}
