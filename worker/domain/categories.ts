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
