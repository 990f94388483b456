// Puts the agency's brand on the HTML pages the worker serves from the static build (the landing page and the app
// shell), which are built once for every agency: the product's name in text and attributes becomes the brand's, the
// product's mark becomes the brand's logo, the contact links point at the agency, and the shell learns the brand
// (a meta tag the web app reads for its first paint) and its accent colour (a stylesheet: the CSP allows no inline style).
import { brandText, publicBrand, type Brand } from "./rules/brand";
import { BRAND_META, brandThemeHref } from "./rules/theme";

const escapeAttr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const escapeText = (v: string) => v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The product's own contact address on the landing page: the brand's support address replaces it. */
const PRODUCT_MAILTO = /^mailto:[^?]*@porchlight\.app(\?.*)?$/i;
/** Links about the product itself (its public roadmap): an agency's page has no such link. */
const PRODUCT_ONLY_LINK = /^https:\/\/github\.com\/porchlight-app\//i;

/** The brand's head tags: its public fields for the web app, and its accent's stylesheet when it has one. */
export function brandHeadTags(brand: Brand): string {
  const tags = [`<meta name="${BRAND_META}" content="${escapeAttr(JSON.stringify(publicBrand(brand)))}">`];
  if (brand.accentColor) tags.push(`<link rel="stylesheet" href="${escapeAttr(brandThemeHref(brand.accentColor))}">`);
  return tags.join("");
}

export function brandPage(response: Response, brand: Brand): Response {
  const rewriter = new HTMLRewriter().on("head", {
    element(head) {
      head.append(brandHeadTags(brand), { html: true });
    },
  });
  if (!brand.custom) return rewriter.transform(response);

  let buffered = "";
  return rewriter
    .on("*", {
      element(el) {
        for (const [name, value] of [...el.attributes]) {
          if (name === "href" && PRODUCT_ONLY_LINK.test(value)) {
            // The product's own roadmap is not the agency's: the link goes.
            el.remove();
            return;
          }
          if (name === "href" && PRODUCT_MAILTO.test(value)) {
            const to = brand.supportEmail ? `mailto:${brand.supportEmail}` : brand.website;
            if (to) el.setAttribute("href", to);
            else el.removeAttribute("href");
          } else if (value.includes("Porchlight")) {
            el.setAttribute(name, brandText(value, brand.name));
          }
        }
      },
      // Text arrives in chunks that may split a word: keep each text node whole, then replace the name in it.
      text(chunk) {
        buffered += chunk.text;
        if (!chunk.lastInTextNode) {
          chunk.remove();
          return;
        }
        const whole = buffered;
        buffered = "";
        if (whole.includes("Porchlight")) chunk.replace(brandText(whole, escapeText(brand.name)), { html: true });
        else chunk.replace(whole, { html: true });
      },
    })
    // What the product says about itself alone ("… and for the agencies that sell to them"): an agency's page goes without.
    .on(".product-only", {
      element(el) {
        el.remove();
      },
    })
    .on("svg.brand-mark", {
      element(el) {
        if (!brand.logoUrl) return;
        el.replace(`<img class="brand-mark brand-logo" src="${escapeAttr(brand.logoUrl)}" alt="" width="32" height="32">`, { html: true });
      },
    })
    .transform(response);
}
