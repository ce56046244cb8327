/** A URL's host name or IP address as a socket or an address check takes it: an IPv6 address without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** localhost, *.localhost, 127.x, ::1 and 0.0.0.0: an address only this computer itself reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0.0.0.0' || /^127\./.test(h);
}
