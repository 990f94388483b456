// /tools/google-results: Google Search Results (spec part 2 §2, §4, §8): a server-side search, copy buttons, sample data.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Button } from "../../../design/button";
import { SearchIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { CopyButton } from "../../reports";
import { ResultCard, SampleDataBanner, ToolResultState, ToolSearchForm } from "../tool-search";
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
import { PageHeader } from "../../../design/page-header";
import "../tools.css";
import { PageTitle } from "../../brand";

export default function GoogleResultsPage() {
  const [search, setSearch] = useState<GoogleResultsQuery | null>(null);
  // The form opens on the business's own trade and city (issue 26); empty without them, as the spec has it.
  const business = useBusinessProfile();
  const start = searchStart(business);
  const hasTrade = start.keyword !== searchStart(null).keyword;
  const opening = useMemo(
    () => ({ first: hasTrade ? start.keyword.toLowerCase() : "", location: business?.company_location?.trim() ?? "" }),
    [hasTrade, start.keyword, business?.company_location],
  );
  const [picked, setInitial] = useState<{ first: string; location: string } | null>(null);
  const initial = picked ?? opening;
  const query = useQuery({ ...googleResultsQuery(search ?? { keyword: "", location: "" }), enabled: search !== null });
  const data = query.data;
  const { isAdmin } = useAuth();
  const viewAs = useViewAs();
  const operator = isAdmin && !viewAs;

  function tryRestaurant() {
    const next = { keyword: start.keyword, location: search?.location || start.location };
    setInitial({ first: next.keyword, location: next.location });
    setSearch(next);
  }

  return (
    <>
      <PageTitle>Google Search Results</PageTitle>
      <PageHeader
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
        toInput={(f) => ({ keyword: f.first, location: f.location })}
        onSearch={(input) => (search && sameSearch(search, input) ? void query.refetch() : setSearch(input))}
      />

      <ToolResultState
        query={query}
        started={search !== null}
        hasResults={Boolean(data?.results.length)}
        results={() => (
          <section aria-label="Search results">
            {data!.sample && data!.warning ? (
              // Why the live search failed is for the operator (an admin); a customer reads the spec's warning only.
              <SampleDataBanner warning={data!.warning} detail={operator ? data!.error : null} />
            ) : null}
            <ol className="tool-results">
              {data!.results.map((r) => (
                <SearchResultCard key={`${r.position}-${r.link}`} result={r} sample={data!.sample} />
              ))}
            </ol>
          </section>
        )}
        start={
          <Placeholder icon={SearchIcon} title="See who ranks on Google">
            <p className="placeholder-text">
              Enter a keyword and a location to see the top Google results for them, with titles, snippets and links ready to
              copy.
            </p>
            <Button variant="primary" onClick={tryRestaurant}>
              {start.tryLabel}
            </Button>
          </Placeholder>
        }
        empty={
          <Placeholder icon={SearchIcon} title="No Search Results Found">
            <p className="placeholder-text">{data?.message ?? NO_RESULTS_MESSAGE}</p>
            <Button variant="primary" onClick={tryRestaurant}>
              {start.tryLabel}
            </Button>
          </Placeholder>
        }
      />
    </>
  );
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
