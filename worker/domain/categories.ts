// The 21 business categories (prospect tags) in the order the spec lists them.
import { z } from "zod";

export const CATEGORIES = [
  "Roofing",
  "Remodeling",
  "Plumbing",
  "Electrical Services",
  "HVAC",
  "Landscaping & Lawn Care",
  "Pest Control",
  "Cleaning Services",
  "Painting",
  "Flooring",
  "Handyman Services",
  "Window & Door Services",
  "Siding & Gutter Services",
  "Deck & Patio Construction",
  "Pool Services",
  "Home Security & Automation",
  "Appliance Repair",
  "General Contracting",
  "Home Inspections",
  "Interior Design",
  "Other",
] as const;

export type Category = (typeof CATEGORIES)[number];

export const CategorySchema = z.enum(CATEGORIES);

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

/**
 * The trade noun of each category, as it reads in a search keyword ("{noun} in austin"). The spec's seven
 * trades keep its words (roofer, plumber, hvac contractor, landscaper, electrician, cleaning service, painter);
 * Other has none: its keyword takes the description's first word, as the spec says.
 */
export const TRADE_NOUNS: Record<Exclude<Category, "Other">, string> = {
  Roofing: "roofer",
  Remodeling: "remodeling contractor",
  Plumbing: "plumber",
  "Electrical Services": "electrician",
  HVAC: "hvac contractor",
  "Landscaping & Lawn Care": "landscaper",
  "Pest Control": "pest control service",
  "Cleaning Services": "cleaning service",
  Painting: "painter",
  Flooring: "flooring contractor",
  "Handyman Services": "handyman",
  "Window & Door Services": "window and door installer",
  "Siding & Gutter Services": "gutter cleaner",
  "Deck & Patio Construction": "deck builder",
  "Pool Services": "pool service",
  "Home Security & Automation": "home security installer",
  "Appliance Repair": "appliance repair technician",
  "General Contracting": "general contractor",
  "Home Inspections": "home inspector",
  "Interior Design": "interior designer",
};
