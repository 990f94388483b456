// Every link in a mail must open from a mail client: absolute (http, https, mailto, tel). A relative one
// ("/shared/client-reports/…") opens nothing there. Checked on every mail the app stores (mail/send.ts) and by the tests.

const ABSOLUTE = /^(https?:\/\/[^/\s]|mailto:|tel:)/i;

/** The links of a mail's HTML (href="…") and plain text (a path standing alone) that are not absolute. */
export function relativeMailLinks(mail: { html?: string | null; text?: string | null }): string[] {
  const out: string[] = [];
  for (const m of (mail.html ?? "").matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)) {
    const href = m[1]!.replace(/&amp;/g, "&").trim();
    if (!ABSOLUTE.test(href)) out.push(href);
  }
  // In the text part a link is a word of its own: a path beginning with "/" after a space or at a line's start.
  for (const m of (mail.text ?? "").matchAll(/(?:^|\s)(\/[A-Za-z0-9_-][^\s]*)/gm)) out.push(m[1]!);
  return out;
}

export class RelativeMailLinkError extends Error {
  constructor(kind: string, links: string[]) {
    super(`a ${kind} mail carries relative links (${links.slice(0, 3).join(", ")}): build them on linkOrigin/appOrigin`);
  }
}
