// A refused call's reason: the google.rpc.ErrorInfo the gateway puts first among a ConnectError's
// details (docs/errors.md lists every reason). The page has no generated type of google.rpc, so the
// detail's three fields are read with protobuf's own wire reader.
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { ConnectError } from "@connectrpc/connect";

/** The reason of a refusal ("UNDO_BARRIER") and its metadata ({barriers: "hand_over"}). */
export type Refusal = { reason: string; metadata: Record<string, string> };

const ERROR_INFO = "google.rpc.ErrorInfo";

function decoded(bytes: Uint8Array): Refusal {
  const found: Refusal = { reason: "", metadata: {} };
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [field, wire] = reader.tag();
    if (field === 1) found.reason = reader.string();
    else if (field === 3) {
      const entry = new BinaryReader(reader.bytes());
      let key = "";
      let value = "";
      while (entry.pos < entry.len) {
        const [part, kind] = entry.tag();
        if (part === 1) key = entry.string();
        else if (part === 2) value = entry.string();
        else entry.skip(kind);
      }
      found.metadata[key] = value;
    } else reader.skip(wire);
  }
  return found;
}

/** The ErrorInfo of a refused call; null for anything else (or a detail that does not decode). */
export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ConnectError)) return null;
  for (const detail of error.details) {
    if (!("type" in detail) || detail.type !== ERROR_INFO) continue;
    try {
      return decoded(detail.value);
    } catch {
      return null;
    }
  }
  return null;
}
