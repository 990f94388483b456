// Response shapes of /api/profile (a user's business profile), shared by the worker and the web.

/** A profile row as the API returns it (worker/routes/profile.ts profileJson builds it). */
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
