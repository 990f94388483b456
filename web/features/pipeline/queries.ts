// Server state of the pipeline (issue 42): the board (filtered on the server), a prospect's timeline, a stage set by an
// admin (PATCH /api/prospects/:id {stage}), and a won prospect invited to become a client.
// Shapes: worker/features/pipeline/rules/stages.ts.
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { PipelineResponse, ProspectTimeline, Stage } from "../../../worker/features/pipeline/rules/stages";
import { API_TIMEOUT_MS } from "../../lib/api";
import { api, unwrap, withInit } from "../../lib/rpc";

const timeout = { timeoutMs: API_TIMEOUT_MS };

export type PipelineParams = { q: string; tag: string; owner: string };
export const pipelineKeys = { all: ["pipeline"] as const, board: (p: PipelineParams) => ["pipeline", "board", p] as const, timeline: (id: string) => ["pipeline", "timeline", id] as const };

export function pipelineQuery(p: PipelineParams) {
  const query = { ...(p.q.trim() ? { q: p.q.trim() } : {}), ...(p.tag ? { tag: p.tag } : {}), ...(p.owner ? { owner: p.owner } : {}) };
  return queryOptions({
    queryKey: pipelineKeys.board(p),
    queryFn: async ({ signal }) => (await unwrap(api.api.pipeline.$get({ query }, withInit({ ...timeout, signal })))) as PipelineResponse,
    placeholderData: (previous) => previous,
  });
}

export function timelineQuery(prospectId: string) {
  return queryOptions({
    queryKey: pipelineKeys.timeline(prospectId),
    queryFn: async ({ signal }) => (await unwrap(api.api.pipeline[":id"].$get({ param: { id: prospectId } }, withInit({ ...timeout, signal })))) as ProspectTimeline,
  });
}

/** Moves a card; the board shows the move at once and is read again after. */
export function useMoveStage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { prospectId: string; stage: Stage }) => unwrap(api.api.prospects[":id"].$patch({ param: { id: v.prospectId }, json: { stage: v.stage } }, withInit(timeout))),
    onMutate: async (v) => {
      await client.cancelQueries({ queryKey: pipelineKeys.all });
      client.setQueriesData<PipelineResponse>({ queryKey: ["pipeline", "board"] }, (old) => {
        const from = old?.cards.find((c) => c.prospectId === v.prospectId)?.stage;
        if (!old || !from || from === v.stage) return old;
        const count = (stage: Stage, n: number) => (stage === from ? n - 1 : stage === v.stage ? n + 1 : n);
        return { ...old, stages: old.stages.map((s) => ({ ...s, count: count(s.stage, s.count) })), cards: old.cards.map((c) => (c.prospectId === v.prospectId ? { ...c, stage: v.stage } : c)) };
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: pipelineKeys.all }),
  });
}

export function useConvert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (prospectId: string) => (await unwrap(api.api.prospects[":id"].convert.$post({ param: { id: prospectId } }, withInit(timeout)))) as { email: string; invitedAt: string; message: string },
    onSuccess: () => client.invalidateQueries({ queryKey: pipelineKeys.all }),
  });
}
