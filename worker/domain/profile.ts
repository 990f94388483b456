// Response shapes of /api/profile (a user's business profile), shared by the worker and the web, and how a row becomes one.
import type { ProfileRow } from "../db/users";

/** A profile row as the API returns it (profileJson builds it). */
export type ProfileDto = {
  id: string;
  email: string | null;
  is_admin: boolean;
  company_name: string | null;
  company_website: string | null;
  company_phone: string | null;
  company_location: string | null;
  company_email: string | null;
  company_category: string | null;
  company_description: string | null;
  company_logo_url: string | null;
  created_at: string;
  updated_at: string;
};

export type ProfileResponse = { profile: ProfileDto; viewingAs: boolean };

export function profileJson(p: ProfileRow): ProfileDto {
  return {
    id: p.id,
    email: p.email,
    is_admin: p.isAdmin,
    company_name: p.companyName,
    company_website: p.companyWebsite,
    company_phone: p.companyPhone,
    company_location: p.companyLocation,
    company_email: p.companyEmail,
    company_category: p.companyCategory,
    company_description: p.companyDescription,
    company_logo_url: p.companyLogoUrl,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}
