// /tools/google-results: Google Search Results (spec part 2 §2, §4, §8): a server-side search, copy buttons, sample data.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { SearchIcon } from "../../../design/icons";
import { CopyButton } from "../../reports";
import { ResultCard, SampleDataBanner, ToolResultState, ToolSearchForm, useToolSearch } from "../tool-search";
import { useAuth } from "../../../lib/auth";
import { useBusinessProfile } from "../../profile";
import { useViewAs } from "../../../lib/view-as";
import { googleResultsQuery } from "../queries";
import {
  GoogleResultsQuery,
  NO_RESULTS_MESSAGE,
  searchStart,
  type SearchResult,
} from "../../../../worker/features/tools/rules/search-tools";
import "../tools.css";
import { PageHead } from "../../brand";

export default function GoogleResultsPage() {
  // The form opens on the business's own trade and city (issue 26); empty without them, as the spec has it.
  const business = useBusinessProfile();
  const start = searchStart(business);
  const hasTrade = start.keyword !== searchStart(null).keyword;
  const opening = useMemo(
    () => ({ first: hasTrade ? start.keyword.toLowerCase() : "", location: business?.company_location?.trim() ?? "" }),
    [hasTrade, start.keyword, business?.company_location],
  );
  const { search, setSearch, initial, trySample } = useToolSearch(opening, toQuery);
  const query = useQuery({ ...googleResultsQuery(search ?? { keyword: "", location: "" }), enabled: search !== null });
  const data = query.data;
  const { isAdmin } = useAuth();
  const viewAs = useViewAs();
  const operator = isAdmin && !viewAs;

  return (
    <>
      <PageHead
        eyebrow="Tools"
        title="Google Search Results"
        subtitle="See the top Google results for a keyword in a location, and copy what you need."
      />

      <ToolSearchForm
        firstLabel="Search Keyword"
        firstName="keyword"
        placeholder={{ first: start.example, location: "e.g. Austin, TX" }}
        initial={initial}
        busy={query.isFetching}
        schema={GoogleResultsQuery}
        toInput={toQuery}
        onSearch={(input) => (search && sameSearch(search, input) ? void query.refetch() : setSearch(input))}
      />

      <ToolResultState
        query={query}
        started={search !== null}
        hasResults={Boolean(data?.results.length)}
        resultsLabel="Search results"
        // Why the live search failed is for the operator (an admin); a customer reads the spec's warning only.
        banner={() => (data!.sample && data!.warning ? <SampleDataBanner warning={data!.warning} detail={operator ? data!.error : null} /> : null)}
        results={() => data!.results.map((r) => <SearchResultCard key={`${r.position}-${r.link}`} result={r} sample={data!.sample} />)}
        icon={SearchIcon}
        trySample={{ label: start.tryLabel, onTry: () => trySample(start) }}
        start={{
          title: "See who ranks on Google",
          text: "Enter a keyword and a location to see the top Google results for them, with titles, snippets and links ready to copy.",
        }}
        empty={{ title: "No Search Results Found", text: data?.message ?? NO_RESULTS_MESSAGE }}
      />
    </>
  );
}

function toQuery(fields: { first: string; location: string }): GoogleResultsQuery {
  return { keyword: fields.first, location: fields.location };
}

function sameSearch(a: GoogleResultsQuery, b: GoogleResultsQuery) {
  return a.keyword === b.keyword && a.location === b.location;
}

function SearchResultCard({ result, sample }: { result: SearchResult; sample: boolean }) {
  // No favicons (issue 26): they would be loaded from the search provider's host by the customer's browser.
  return (
    <ResultCard
      sample={sample}
      media={<SearchIcon size="sm" />}
      eyebrow={result.displayedLink}
      title={
        <a href={result.link} target="_blank" rel="noopener noreferrer">
          {result.title}
        </a>
      }
      actions={
        <>
              <CopyButton text={result.title} label="Copy Title" copiedLabel="Copied!" />
              <CopyButton text={result.snippet} label="Copy Snippet" copiedLabel="Copied!" />
              <CopyButton text={result.link} label="Copy Link" copiedLabel="Copied!" />
        </>
      }
    >
      <p className="result-card-text">{result.snippet}</p>
    </ResultCard>
  );
}
