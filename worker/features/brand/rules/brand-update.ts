// The agency's brand (issue 30): the PUT body's rules. Apart from brand.ts so that the pages every visit loads (the
// brand in the shell) do not construct zod schemas before web/lib/zod-config.ts has turned zod's eval probe off: a
// schema built at module load ran the probe, which the app's CSP (no 'unsafe-eval') reported as a violation.
import { z } from "zod";
import { BRAND_LIMITS, normalizeHex } from "../../../platform/brand/rules/brand";
import { NO_CONTROL_CHARACTERS, noControlCharacters } from "../../../domain/form-rules";
import { optionalEmail, optionalWebsite } from "../../profile/rules/profile";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` })
    .refine(noControlCharacters, { message: NO_CONTROL_CHARACTERS });
/** Blank or null clears the field. */
const optionalText = (max: number) =>
  text(max)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

/** A name mail may carry in its From header: no quotes, angle brackets or commas that would change the address. */
const SENDER_NAME = /^[^"<>,;\\@]*$/;

/**
 * The whole brand (the form saves every field at once; an absent optional field is cleared). The accent colour's
 * contrast is not a schema rule: a failing colour is answered 422 with the nearest readable one (see the route).
 */
export const BrandUpdate = z.strictObject({
  name: text(BRAND_LIMITS.name).min(1, { message: "Enter the agency's name" }),
  accentColor: z
    .string()
    .trim()
    .refine((v) => v === "" || normalizeHex(v) !== null, { message: "Enter a colour like #1d4ed8" })
    .transform((v) => (v === "" ? null : normalizeHex(v)))
    .nullable()
    .optional(),
  website: optionalWebsite(BRAND_LIMITS.website),
  supportEmail: optionalEmail(BRAND_LIMITS.supportEmail),
  supportPhone: optionalText(BRAND_LIMITS.supportPhone),
  mailSenderName: text(BRAND_LIMITS.mailSenderName)
    .refine((v) => SENDER_NAME.test(v), { message: "Use letters, digits and spaces (no quotes, @, commas or angle brackets)" })
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
  footerLine: optionalText(BRAND_LIMITS.footerLine),
});
export type BrandUpdateInput = z.input<typeof BrandUpdate>;
export type BrandUpdate = z.output<typeof BrandUpdate>;
