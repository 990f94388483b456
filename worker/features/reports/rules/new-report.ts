// Create New Report: the form's schema (shared by the API validator and the web form) and how a prospect is derived from it.
import { z } from "zod";
import { CategorySchema } from "../../../domain/categories";
import { fieldRules } from "../../../domain/form-rules";
import { isWebUrl, normalizeWebsite } from "../../profile/rules/profile";
import {
  deriveTag,
  normalizePhone,
  prospectSearchText,
  qualifyingQuestions,
  questionsToText,
} from "../../prospects/rules/prospect";

/** Spec part 2 §5 / §8 wording. */
export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields";
export const CREATE_PROSPECT_FAILED = "Failed to create prospect";
export const CREATE_REPORT_FAILED = "Failed to create report";
export const GENERATION_DEFERRED_MESSAGE =
  "Report created but there was an issue generating content. Content will be generated in the background.";
export const NOT_SIGNED_IN_MESSAGE = "You must be logged in to create a report";

const required = (max: number) =>
  z.string({ error: REQUIRED_FIELDS_MESSAGE }).trim().min(1, REQUIRED_FIELDS_MESSAGE).max(max, `Must be at most ${max} characters`);
const optional = (max: number) =>
  z.string().trim().max(max, `Must be at most ${max} characters`).optional().default("");

export const INVALID_WEBSITE_MESSAGE = "Enter a valid website address, like example.com";

/** An optional website: typed without a scheme it gets https://; blank is none (null). */
export const WebsiteInput = z
  .string()
  .max(500, "Must be at most 500 characters")
  .transform(normalizeWebsite)
  .refine((v) => v === "" || isWebUrl(v), { message: INVALID_WEBSITE_MESSAGE })
  .transform((v) => (v === "" ? null : v));

export const NewReportInput = z.object({
  name: required(200),
  company_name: optional(200),
  phone: optional(50),
  description: optional(5000),
  area: required(200),
  keyword: required(200),
  category: z.union([CategorySchema, z.literal("")]).optional().default(""),
  /** The prospect's website (optional): the audit reads it (issue 18). */
  website: WebsiteInput.nullable().optional().default(null),
  /** false for "Save Only". */
  generate: z.boolean().optional().default(true),
});
export type NewReportInput = z.input<typeof NewReportInput>;
export type ParsedNewReport = z.output<typeof NewReportInput>;

/** Required fields and lengths for the web form, read from the schema. */
export const NEW_REPORT_FIELDS = fieldRules(NewReportInput.shape);

/** The fields whose absence gives REQUIRED_FIELDS_MESSAGE. */
export const REQUIRED_FIELDS = ["name", "area", "keyword"] as const;

/** The form's one message when a required field is missing (spec §5), for the API and the form alike. */
export function newReportErrorMessage(fields: Record<string, string[] | undefined>): string | undefined {
  return REQUIRED_FIELDS.some((f) => fields[f]?.includes(REQUIRED_FIELDS_MESSAGE)) ? REQUIRED_FIELDS_MESSAGE : undefined;
}

/** The prospect row and report questions for a submitted form, by the same rules the prospect import uses. */
export function prospectFromForm(input: ParsedNewReport) {
  const tag = input.category !== "" ? input.category : deriveTag(input.description);
  const fields = {
    name: input.name,
    companyName: input.company_name,
    phone: normalizePhone(input.phone),
    description: input.description,
    area: input.area,
    // The typed keyword is the report's (issue 39): the spec replaced it by one derived from the description and area,
    // which turned "emergency plumber austin" into "plumber in austin". The import and the widget, which have no
    // keyword field, still derive one.
    keyword: input.keyword.trim(),
    tag,
    website: input.website ?? null,
  };
  return {
    prospect: {
      ...fields,
      searchText: prospectSearchText({
        name: fields.name,
        area: fields.area,
        keyword: fields.keyword,
        tag: fields.tag,
        description: fields.description,
        company_name: fields.companyName,
        phone: fields.phone,
        email: "",
      }),
    },
    questions: questionsToText(qualifyingQuestions(input.description, input.area)),
  };
}
