// markdown-it normalises every link's URL (normalizeLink) and every autolink's text
// (normalizeLinkText) by parsing it with mdurl, passing its host through punycode and
// percent-encoding (or decoding) the result: about 4 µs a link, 3–4 ms of a 400,000-character
// render with a thousand links. For most URLs all of that gives back the URL itself: an http(s)
// URL whose host is lower-case ASCII labels (punycode leaves them; mdurl's parser keeps labels of
// at most 63 characters and hosts of at most 255) and whose path, query and fragment use only the
// characters mdurl's encoder keeps, or %XX escapes, which it keeps too. Such a URL is answered
// as it is; any other takes markdown-it's own path (test/documents/render/plain-url.test.ts
// compares the two on generated URLs).

/** http(s), lower-case ASCII host labels, then only characters mdurl.encode leaves alone, or %XX. */
const PLAIN_URL = /^https?:\/\/[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*(?:[/?#](?:[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#]|%[0-9A-Fa-f]{2})*)?$/;
/** The longest host mdurl's parser keeps. */
const MAX_HOST = 255;

const hostLength = (url: string): number => {
  const start = url.indexOf("//") + 2;
  const end = url.slice(start).search(/[/?#]/);
  return end < 0 ? url.length - start : end;
};

/** True when markdown-it's normalizeLink would return `url` unchanged. */
export const plainUrl = (url: string): boolean => PLAIN_URL.test(url) && hostLength(url) <= MAX_HOST;

/**
 * True when markdown-it's normalizeLinkText would return `url` unchanged: a plain URL with no
 * escape to decode and no punycode label ("xn--") to turn back into Unicode.
 */
export const plainUrlText = (url: string): boolean => plainUrl(url) && !url.includes("%") && !url.includes("xn--");

interface LinkNormalizer {
  normalizeLink(url: string): string;
  normalizeLinkText(url: string): string;
}

/** Puts the plain-URL shortcut in front of a markdown-it instance's own normalizers. */
export function shortcutPlainUrls(md: LinkNormalizer): void {
  const { normalizeLink, normalizeLinkText } = md;
  md.normalizeLink = (url) => (plainUrl(url) ? url : normalizeLink.call(md, url));
  md.normalizeLinkText = (url) => (plainUrlText(url) ? url : normalizeLinkText.call(md, url));
}
