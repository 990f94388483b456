// /tools/google-ads-analyzer: Google Local Services Analyzer (spec part 2 §2, §3, §9): five sample listings to study and copy.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useBusinessProfile } from "../../profile";
import { Badge } from "../../../design/badge";
import { ClockIcon, ExternalLinkIcon, MapPinIcon, PhoneIcon, StoreIcon } from "../../../design/icons";
import { CopyButton } from "../../reports";
import { ResultCard, SampleDataBanner, ToolResultState, ToolSearchForm, useToolSearch } from "../tool-search";
import { localServicesQuery } from "../queries";
import {
  listingAllInfo,
  LocalServicesQuery,
  searchStart,
  type LocalServiceListing,
} from "../../../../worker/features/tools/rules/search-tools";
import "../tools.css";
import { PageHead } from "../../brand";

export default function GoogleAdsAnalyzerPage() {
  // The form opens on the business's own trade and city (issue 26); the spec's defaults without them.
  const business = useBusinessProfile();
  const start = searchStart(business);
  const opening = useMemo(() => ({ first: start.businessType, location: start.location }), [start.businessType, start.location]);
  const { search, setSearch, initial, trySample } = useToolSearch(opening, toQuery);
  const query = useQuery({ ...localServicesQuery(search ?? { businessType: "", location: "" }), enabled: search !== null });
  const data = query.data;

  return (
    <>
      <PageHead
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
        toInput={toQuery}
        submitLabel="Analyze"
        onSearch={setSearch}
      />

      <ToolResultState
        query={query}
        started={search !== null}
        hasResults={Boolean(data?.listings.length)}
        resultsLabel="Local services results"
        banner={() => <SampleDataBanner warning={data!.warning} />}
        results={() => data!.listings.map((l) => <ListingCard key={l.position} listing={l} sample={data!.sample} />)}
        icon={StoreIcon}
        trySample={{ label: start.tryLabel, onTry: () => trySample(start) }}
        start={{
          title: "See how local businesses show up on Google",
          text: "Enter a business type and a location, then analyze how the top local listings present themselves: names, ratings, badges and descriptions to learn from.",
        }}
        empty={{ title: "No Local Services Found", text: "No listings for this business type and location. Try a different search." }}
      />
    </>
  );
}

function toQuery(fields: { first: string; location: string }): LocalServicesQuery {
  return { businessType: fields.first, location: fields.location };
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
