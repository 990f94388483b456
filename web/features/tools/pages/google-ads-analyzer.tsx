// /tools/google-ads-analyzer: Google Local Services Analyzer (spec part 2 §2, §3, §9): five sample listings to study and copy.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useBusinessProfile } from "../../profile";
import { Badge } from "../../../design/badge";
import { Button } from "../../../design/button";
import { ClockIcon, ExternalLinkIcon, MapPinIcon, PhoneIcon, StoreIcon } from "../../../design/icons";
import { Placeholder } from "../../../design/placeholder";
import { CopyButton } from "../../reports";
import { ResultCard, SampleDataBanner, ToolResultState, ToolSearchForm } from "../tool-search";
import { localServicesQuery } from "../queries";
import {
  listingAllInfo,
  LocalServicesQuery,
  searchStart,
  type LocalServiceListing,
} from "../../../../worker/features/tools/rules/search-tools";
import { PageHeader } from "../../../design/page-header";
import "../tools.css";
import { PageTitle } from "../../brand";

export default function GoogleAdsAnalyzerPage() {
  const [search, setSearch] = useState<LocalServicesQuery | null>(null);
  // The form opens on the business's own trade and city (issue 26); the spec's defaults without them.
  const business = useBusinessProfile();
  const start = searchStart(business);
  const opening = useMemo(() => ({ first: start.businessType, location: start.location }), [start.businessType, start.location]);
  const [picked, setInitial] = useState<{ first: string; location: string } | null>(null);
  const initial = picked ?? opening;
  const query = useQuery({ ...localServicesQuery(search ?? { businessType: "", location: "" }), enabled: search !== null });
  const data = query.data;

  function tryRestaurant() {
    const next = { businessType: start.keyword, location: search?.location || start.location };
    setInitial({ first: next.businessType, location: next.location });
    setSearch(next);
  }

  return (
    <>
      <PageTitle>Google Local Services Analyzer</PageTitle>
      <PageHeader
        eyebrow="Tools"
        title="Google Local Services Analyzer"
        subtitle="See how local businesses present themselves on Google for a business type and location, and copy what works."
      />

      <ToolSearchForm
        firstLabel="Business Type"
        firstName="businessType"
        placeholder={{ first: start.example, location: "e.g. Austin, TX" }}
        initial={initial}
        busy={query.isFetching}
        schema={LocalServicesQuery}
        toInput={(f) => ({ businessType: f.first, location: f.location })}
        submitLabel="Analyze"
        onSearch={setSearch}
      />

      <ToolResultState
        query={query}
        started={search !== null}
        hasResults={Boolean(data?.listings.length)}
        results={() => (
          <section aria-label="Local services results">
            <SampleDataBanner warning={data!.warning} />
            <ol className="tool-results">
              {data!.listings.map((l) => (
                <ListingCard key={l.position} listing={l} sample={data!.sample} />
              ))}
            </ol>
          </section>
        )}
        start={
          <Placeholder icon={StoreIcon} title="See how local businesses show up on Google">
            <p className="placeholder-text">
              Enter a business type and a location, then analyze how the top local listings present themselves: names,
              ratings, badges and descriptions to learn from.
            </p>
            <Button variant="primary" onClick={tryRestaurant}>
              {start.tryLabel}
            </Button>
          </Placeholder>
        }
        empty={
          <Placeholder icon={StoreIcon} title="No Local Services Found">
            <p className="placeholder-text">No listings for this business type and location. Try a different search.</p>
            <Button variant="primary" onClick={tryRestaurant}>
              {start.tryLabel}
            </Button>
          </Placeholder>
        }
      />
    </>
  );
}

function ListingCard({ listing, sample }: { listing: LocalServiceListing; sample: boolean }) {
  return (
    <ResultCard
      sample={sample}
      media={<span className="result-position">{listing.position}</span>}
      eyebrow={
        <>
          {listing.displayUrl} · {listing.type}
        </>
      }
      title={listing.title}
      actions={
        <>
              <CopyButton text={listing.title} label="Copy Name" copiedLabel="Copied!" />
              <CopyButton text={listing.description} label="Copy Details" copiedLabel="Copied!" />
              <CopyButton text={listingAllInfo(listing)} label="Copy All Info" copiedLabel="Copied!" />
              <a className="btn btn-ghost btn-sm" href={listing.targetUrl} target="_blank" rel="noopener noreferrer">
                <ExternalLinkIcon size="sm" />
                {sample ? "Search on Google Maps" : "Visit Website"}
              </a>
        </>
      }
    >
      <p className="result-card-text">{listing.description}</p>
      <p className="result-card-facts">
        <span>
          ★ {listing.rating} ({listing.reviews} reviews)
        </span>
        {listing.badge ? <Badge tone="success">{listing.badge}</Badge> : null}
        <span>
          <PhoneIcon size="sm" />
          {listing.phone}
        </span>
        <span>
          <MapPinIcon size="sm" />
          {listing.address}
        </span>
        <span>
          <ClockIcon size="sm" />
          {listing.hours}
        </span>
        <span>{listing.years_in_business} years in business</span>
      </p>
    </ResultCard>
  );
}
