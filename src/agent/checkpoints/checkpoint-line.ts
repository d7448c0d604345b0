import * as v from "valibot";

/**
 * One line of a session's checkpoint journal (`<session>/checkpoints/journal.jsonl`). The journal is
 * replayed in order: prompts as they were sent, each file's content before a prompt first changed
 * it (a blob, or null: it did not exist), what cat-code last wrote to each file, files a prompt
 * could not keep, and the rewinds of the conversation.
 */
const Id = v.pipe(v.number(), v.integer(), v.minValue(1));
const Sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

/** Where a prompt starts in the conversation, and a hash of everything before it (conversation-cut.ts). */
export const PromptPosition = v.object({ message: v.pipe(v.number(), v.integer(), v.minValue(0)), block: v.pipe(v.number(), v.integer(), v.minValue(0)), hash: Sha });
export type PromptPosition = v.InferOutput<typeof PromptPosition>;

export const CheckpointLine = v.variant("type", [
  v.object({ type: v.literal("prompt"), id: Id, time: v.string(), text: v.string(), at: PromptPosition }),
  v.object({ type: v.literal("before"), prompt: Id, path: v.string(), blob: v.nullable(Sha), mode: v.optional(v.number()) }),
  v.object({ type: v.literal("wrote"), path: v.string(), sha: v.nullable(Sha) }),
  v.object({ type: v.literal("incomplete"), prompt: Id, path: v.string(), reason: v.string() }),
  v.object({ type: v.literal("rewound"), prompt: Id }),
]);
export type CheckpointLine = v.InferOutput<typeof CheckpointLine>;

/** The line parsed and checked; undefined for anything else (a cut line, garbage). */
export function decodeCheckpointLine(text: string): CheckpointLine | undefined {
  try {
    const parsed = v.safeParse(CheckpointLine, JSON.parse(text));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}
