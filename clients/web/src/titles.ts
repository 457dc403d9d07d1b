// Every message type a game view, action or event may hold (every file generated from protos/), so
// that an Any decodes to a readable tree; a title with a drawn board also has one in boards/.
import { createRegistry, toJson, type JsonValue } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { FILES } from "./gen/files";

export const registry = createRegistry(...FILES);

/** The message an Any holds, as protobuf JSON (camelCase fields, enum names); null if unknown. */
export function unpacked(any: Any | undefined): JsonValue | null {
  if (!any || !any.typeUrl) return null;
  const message = anyUnpack(any, registry);
  if (!message) return null;
  const name = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
  const schema = registry.getMessage(name);
  return schema ? toJson(schema, message, { registry, alwaysEmitImplicit: true }) : null;
}

