// A Google Business Profile location's guarded fields (issue 41), as Business Information API v1 names and nests them
// (https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations#Location): the
// shape the Google client reads (locations.get, locations.getGoogleUpdated) and sends (locations.patch), and the guard
// keeps in its snapshots. The platform's own contract: the gbp-guard capability's rules re-export what its screens read.

/** The fields the guard watches, by their top-level names in Google's Location (readMask, updateMask, diffMask). */
export const GUARDED_FIELDS = ["title", "phoneNumbers", "websiteUri", "storefrontAddress", "regularHours", "categories", "profile"] as const;
export type GuardedField = (typeof GUARDED_FIELDS)[number];

/** The words the product uses for each guarded field. */
export const GUARDED_FIELD_LABELS: Record<GuardedField, string> = {
  title: "Business name",
  phoneNumbers: "Phone",
  websiteUri: "Website",
  storefrontAddress: "Address",
  regularHours: "Hours",
  categories: "Categories",
  profile: "Description",
};

/** google.type.PostalAddress, the fields a storefront address uses. */
export interface GbpPostalAddress {
  regionCode?: string;
  languageCode?: string;
  postalCode?: string;
  administrativeArea?: string;
  locality?: string;
  addressLines?: string[];
}

/** google.type.TimeOfDay; an absent part is 0. */
export interface GbpTimeOfDay {
  hours?: number;
  minutes?: number;
}

/** One span of regular hours (`openDay` and `closeDay` are DayOfWeek names, MONDAY … SUNDAY). */
export interface GbpTimePeriod {
  openDay: string;
  openTime?: GbpTimeOfDay;
  closeDay: string;
  closeTime?: GbpTimeOfDay;
}

export interface GbpCategory {
  /** `categories/gcid:roofing_contractor` */
  name: string;
  displayName?: string;
}

/** The guarded part of a Location; only the fields asked for (readMask) or sent (updateMask) are present. */
export interface GbpLocationFields {
  title?: string;
  phoneNumbers?: { primaryPhone?: string; additionalPhones?: string[] };
  websiteUri?: string;
  storefrontAddress?: GbpPostalAddress;
  regularHours?: { periods?: GbpTimePeriod[] };
  categories?: { primaryCategory?: GbpCategory; additionalCategories?: GbpCategory[] };
  profile?: { description?: string };
}

/** The top-level guarded fields a field mask names (`phoneNumbers.primaryPhone` → `phoneNumbers`), each once, in order. */
export function guardedFieldsOf(mask: readonly string[]): GuardedField[] {
  const tops = new Set(mask.map((path) => path.trim().split(".")[0]));
  return GUARDED_FIELDS.filter((field) => tops.has(field));
}

/** What Google says about who speaks for the location (Verifications API, locations.getVoiceOfMerchantState). */
export type VoiceOfMerchantAction = "none" | "wait" | "verify" | "resolve_ownership_conflict" | "comply_with_guidelines";

export interface VoiceOfMerchantState {
  /** The merchant's edits go live: the location is verified and in good standing. */
  hasVoiceOfMerchant: boolean;
  hasBusinessAuthority: boolean;
  /** What the merchant must do to gain or regain the voice ("none" when it has it). */
  action: VoiceOfMerchantAction;
  /** complyWithGuidelines.recommendationReason (e.g. BUSINESS_LOCATION_SUSPENDED), else null. */
  reason: string | null;
}
