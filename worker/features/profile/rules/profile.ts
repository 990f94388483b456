// Response shapes of /api/profile (a user's business profile), shared by the worker and the web, and how a row becomes one.
import { z } from "zod";
import type { ProfileRow } from "../../../platform/auth/users";
import { CATEGORIES } from "../../../domain/categories";
import { NO_CONTROL_CHARACTERS, noControlCharacters } from "../../../domain/form-rules";
import { validTimeZone } from "../../../domain/time-zone";

/** A profile row as the API returns it (profileJson builds it). */
export type ProfileDto = {
  id: string;
  email: string | null;
  is_admin: boolean;
  company_name: string | null;
  company_website: string | null;
  company_phone: string | null;
  company_location: string | null;
  company_street_address: string | null;
  company_email: string | null;
  company_category: string | null;
  company_description: string | null;
  company_logo_url: string | null;
  /** The business's IANA time zone; null until set (the web then uses the browser's). */
  time_zone: string | null;
  created_at: string;
  updated_at: string;
};

export type ProfileResponse = {
  profile: ProfileDto;
  viewingAs: boolean;
  /** The caller is an admin whose session lacks the two-factor step REQUIRE_ADMIN_MFA asks for (GET only). */
  adminMfaMissing?: boolean;
  /** The caller has not confirmed their address by its emailed link yet (GET only; issue 26). */
  emailUnconfirmed?: boolean;
  /** …and it is one of ADMIN_EMAILS: admin rights start with that link. */
  adminAwaitsConfirmation?: boolean;
};

/** Said after sign-up and on the dashboard until the address is confirmed. */
/** What else waits on the link for a customer (issue 39): every paid feature. */
export const PAID_FEATURES_WAIT = "AI features, scans and review requests start once it is confirmed.";

export function confirmEmailNotice(email: string, adminAwaits: boolean): string {
  const base = `We sent a link to ${email}: open it to confirm your address.`;
  return adminAwaits ? `${base} Your administrator rights start once the address is confirmed.` : base;
}

export function profileJson(p: ProfileRow): ProfileDto {
  return {
    id: p.id,
    email: p.email,
    is_admin: p.isAdmin,
    company_name: p.companyName,
    company_website: p.companyWebsite,
    company_phone: p.companyPhone,
    company_location: p.companyLocation,
    company_street_address: p.companyStreetAddress ?? null,
    company_email: p.companyEmail,
    company_category: p.companyCategory,
    company_description: p.companyDescription,
    company_logo_url: p.companyLogoUrl,
    time_zone: p.timeZone ?? null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

// ---- The Company Profile form (Business Settings): one schema for PUT /api/profile and the web form.

export const PROFILE_LIMITS = {
  company_name: 200,
  company_website: 500,
  company_phone: 50,
  company_location: 200,
  company_street_address: 200,
  company_email: 254,
  company_description: 2000,
} as const;

/** Spec part 1 §5/§9: the logo must be smaller than 2 MB. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_TOO_LARGE_MESSAGE = "Avatar image must be smaller than 2MB";
export const LOGO_TYPE_MESSAGE = "The logo must be a PNG, JPEG, WebP or GIF image.";
export const PROFILE_SAVED_MESSAGE = "Business profile updated successfully";
export const PROFILE_LOGIN_REQUIRED = "You must be logged in to update your profile";

/** Trimmed text; blank or null clears the column; absent leaves it as it is. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` })
    .refine(noControlCharacters, { message: NO_CONTROL_CHARACTERS })
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

/** A website typed without a scheme gets https:// (as the users list links it); it must then be a URL. */
export function normalizeWebsite(value: string): string {
  const trimmed = value.trim();
  if (trimmed === "") return "";
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** A website (https:// added when typed without a scheme); blank or null clears it. Shared with the brand's. */
export const optionalWebsite = (max: number) =>
  z
    .string()
    .max(max, { message: `Must be at most ${max} characters` })
    .transform(normalizeWebsite)
    .refine((v) => v === "" || isWebUrl(v), { message: "Enter a valid website address, like example.com" })
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

/** An email address, kept in lower case; blank or null clears it. Shared with the brand's. */
export const optionalEmail = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => v === "" || z.email().safeParse(v).success, { message: "Enter a valid email address" })
    .transform((v) => (v === "" ? null : v.toLowerCase()))
    .nullable()
    .optional();

/**
 * Strict: a body of unknown keys is refused. An update changes only the fields it names (an explicit null or a
 * blank clears one): `{}` changes nothing, where it once cleared the whole profile.
 */
export const ProfileUpdate = z.strictObject({
  company_name: optionalText(PROFILE_LIMITS.company_name),
  company_website: optionalWebsite(PROFILE_LIMITS.company_website),
  company_phone: optionalText(PROFILE_LIMITS.company_phone),
  company_location: optionalText(PROFILE_LIMITS.company_location),
  company_street_address: optionalText(PROFILE_LIMITS.company_street_address),
  company_email: optionalEmail(PROFILE_LIMITS.company_email),
  company_category: z
    .union([z.enum(CATEGORIES), z.literal("")], { message: "Choose one of the listed categories" })
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
  company_description: optionalText(PROFILE_LIMITS.company_description),
  /** An IANA zone ("America/Chicago"), as the browser names it; blank or null clears it. */
  time_zone: z
    .string()
    .trim()
    .max(64)
    .refine((v) => v === "" || validTimeZone(v), { message: "Choose a time zone from the list" })
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
});
export type ProfileUpdateInput = z.input<typeof ProfileUpdate>;
export type ProfileUpdate = z.output<typeof ProfileUpdate>;

export type LogoType = { mime: "image/png" | "image/jpeg" | "image/webp" | "image/gif"; ext: "png" | "jpg" | "webp" | "gif" };

/** The image type decided by the file's first bytes (never its name or the browser's claim); null for anything else, SVG included. */
export function sniffLogoType(bytes: Uint8Array): LogoType | null {
  const at = (i: number) => bytes[i] ?? -1;
  const ascii = (from: number, text: string) => [...text].every((ch, i) => at(from + i) === ch.charCodeAt(0));
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return { mime: "image/png", ext: "png" };
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return { mime: "image/gif", ext: "gif" };
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return { mime: "image/webp", ext: "webp" };
  return null;
}

/** Stored files never change under one key (a new logo gets a new key): cache them for a year. */
export const FILE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Public path of a stored file (GET /api/files/<key>). */
export const FILES_PATH = "/api/files/";
export function fileUrl(key: string): string {
  return `${FILES_PATH}${key}`;
}
/** The R2 key behind one of our file URLs, or null for anything else (an old local preview address). */
export function fileKeyFromUrl(url: string | null | undefined): string | null {
  if (!url?.startsWith(FILES_PATH)) return null;
  const key = url.slice(FILES_PATH.length);
  return /^logos\/[A-Za-z0-9-]+\/[A-Za-z0-9-]+\.(png|jpg|webp|gif)$/.test(key) ? key : null;
}
