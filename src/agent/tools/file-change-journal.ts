/**
 * What a tool that writes files tells before and after it writes, so that each prompt's changes can
 * be undone (checkpoints, src/agent/checkpoints/). A tool calls it only once the call was approved
 * and is about to write: only files the tools were allowed to write are ever journaled.
 */
export interface FileChangeJournal {
  /** Before the first byte is written: the file's content now (or that it does not exist) is kept. Never throws. */
  beforeChange(file: string): Promise<void>;
  /** After the write succeeded: what the tool left there, to tell later changes made outside cat-code. Never throws. */
  changed(file: string, content: string | Uint8Array): Promise<void>;
}
