// The owner's own edit of the profile through Porchlight (issue 41): the business name, address, phone or website of a
// watched location, sent to Google only after the risk check (a risky value only when the person confirms). Pure: the
// web imports it. Categories are not edited here: Google takes them only as its own category ids.
import { z } from "zod";
import type { GbpLocationFields } from "../../../platform/providers/rules/gbp-location";

export const EDITABLE_FIELDS = ["title", "storefrontAddress", "phoneNumbers", "websiteUri"] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

const line = (max: number) => z.string().trim().min(1, "Required").max(max, `At most ${max} characters`);

export const OwnerEdit = z
  .object({
    locationName: z.string().trim().min(1).max(200),
    confirmRisks: z.boolean().optional(),
    edit: z.discriminatedUnion("field", [
      z.object({ field: z.literal("title"), title: line(100) }).strict(),
      z
        .object({
          field: z.literal("storefrontAddress"),
          addressLines: z.array(z.string().trim().max(80, "At most 80 characters")).min(1).max(3).transform((lines) => lines.filter(Boolean)).pipe(z.array(z.string()).min(1, "Required")),
          locality: line(80),
          administrativeArea: line(80),
          postalCode: line(20),
          regionCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "A two-letter country code, like US").transform((s) => s.toUpperCase()).default("US"),
        })
        .strict(),
      z.object({ field: z.literal("phoneNumbers"), primaryPhone: z.string().trim().regex(/^\+?[\d\s().-]{7,20}$/, "A phone number, like (512) 555-0100") }).strict(),
      z.object({ field: z.literal("websiteUri"), websiteUri: z.url({ protocol: /^https?$/, error: "A web address starting with https://" }).max(300) }).strict(),
    ]),
  })
  .strict();
export type OwnerEdit = z.infer<typeof OwnerEdit>;

/** The edit as the Location's fields it sends (only the edited one). */
export function editFields(edit: OwnerEdit["edit"]): GbpLocationFields {
  switch (edit.field) {
    case "title":
      return { title: edit.title };
    case "storefrontAddress":
      return { storefrontAddress: { regionCode: edit.regionCode, addressLines: edit.addressLines, locality: edit.locality, administrativeArea: edit.administrativeArea, postalCode: edit.postalCode } };
    case "phoneNumbers":
      return { phoneNumbers: { primaryPhone: edit.primaryPhone } };
    case "websiteUri":
      return { websiteUri: edit.websiteUri };
  }
}
