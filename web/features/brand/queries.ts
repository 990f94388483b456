// Server state of /api/brand (issue 30): the agency's brand, read once per visit (the worker also puts it in the page's
// <meta name="app-brand"> so the first paint is branded), and the Brand page's writes.
import { QueryClientContext, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useContext } from "react";
import { DEFAULT_BRAND, publicBrand, type Brand, type PublicBrand } from "../../../worker/platform/brand/rules/brand";
import type { BrandUpdateInput } from "../../../worker/features/brand/rules/brand-update";
import { API_TIMEOUT_MS, authedFetch, readApiResponse, uploadFile } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { brandFromPage } from "../../lib/served-brand";
import { api, unwrap, type RpcInit } from "../../lib/rpc";

const init = { init: { timeoutMs: API_TIMEOUT_MS } as RpcInit };

export const brandKeys = { brand: ["brand"] as const, admin: ["brand", "admin"] as const };

/** The public brand (what useBrand shows). */
export const brandQuery = () =>
  queryOptions({
    queryKey: brandKeys.brand,
    queryFn: async () => (await unwrap(api.api.brand.$get(undefined, init))).brand as PublicBrand,
    staleTime: 5 * 60_000,
  });

/** The whole brand, for the Brand page (an admin's GET answers every field): always read fresh. */
export const adminBrandQuery = () =>
  queryOptions({
    queryKey: brandKeys.admin,
    queryFn: async () => (await unwrap(api.api.brand.$get(undefined, init))).brand as Brand,
    staleTime: 0,
  });

/** After a write: the Brand page's copy and the one every screen shows. */
function useStoreBrand() {
  const client = useQueryClient();
  return (brand: Brand) => {
    client.setQueryData(brandKeys.admin, brand);
    client.setQueryData(brandKeys.brand, publicBrand(brand));
  };
}

/**
 * The effective public brand, at once: the copy the worker put in the page (no request at all), else GET /api/brand
 * once (the product's defaults until it answers). A save on the Brand page updates it in place.
 */
export function useBrand(): PublicBrand {
  const page = brandFromPage();
  // The app's own client where a screen is rendered outside the provider (a bare component, a server render).
  const client = useContext(QueryClientContext) ?? queryClient;
  const query = useQuery({ ...brandQuery(), initialData: page, enabled: page === undefined }, client);
  return query.data ?? page ?? DEFAULT_BRAND;
}

/** The Brand page's save (a 422 `accent_contrast_too_low` names the nearest readable colour in its message). */
export function useSaveBrand() {
  const store = useStoreBrand();
  return useMutation({
    mutationFn: async (json: BrandUpdateInput) => {
      const res = await authedFetch("/api/brand", { method: "PUT", json, timeoutMs: API_TIMEOUT_MS });
      return ((await readApiResponse(res)) as { brand: Brand }).brand;
    },
    onSuccess: store,
  });
}

/** Back to the product's own brand. */
export function useResetBrand() {
  const store = useStoreBrand();
  return useMutation({
    mutationFn: async () => ((await unwrap(api.api.brand.$delete(undefined, init))).brand as Brand),
    onSuccess: store,
  });
}

export function useUploadBrandLogo() {
  const store = useStoreBrand();
  return useMutation({
    mutationFn: async (file: File) => (await uploadFile<{ brand: Brand }>("/api/brand/logo", file)).brand,
    onSuccess: store,
  });
}
