/**
 * The `http-url` string format: an absolute http(s) URL with a host and a usable port (1-65535),
 * without control characters. For links that a page or an email will show or fetch (a staffer's
 * avatar, a location's images): `format: 'uri'` alone takes `javascript:alert(1)` and
 * `http://host:0/`, and the URL parser silently drops tabs and newlines.
 */
export const HTTP_URL_FORMAT = 'http-url';

export function isHttpUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value); // throws on a port above 65535
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.port !== '0';
}
