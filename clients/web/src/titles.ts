// Every message type a game view, action or event may hold, so that an Any decodes to a readable
// tree. A new title adds its generated file here (and, if it has one, its board in boards/).
import { createRegistry, fromBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { file_boardgame_assyria_v1_assyria } from "./gen/boardgame/assyria/v1/assyria_pb";
import { file_boardgame_gateway_v1_gateway } from "./gen/boardgame/gateway/v1/gateway_pb";
import { file_boardgame_glenmore_v1_glenmore } from "./gen/boardgame/glenmore/v1/glenmore_pb";
import { file_boardgame_puertorico_v1_puertorico } from "./gen/boardgame/puertorico/v1/puertorico_pb";
import { file_boardgame_rules_v1_rules } from "./gen/boardgame/rules/v1/rules_pb";

export const registry = createRegistry(
  file_boardgame_gateway_v1_gateway,
  file_boardgame_rules_v1_rules,
  file_boardgame_puertorico_v1_puertorico,
  file_boardgame_glenmore_v1_glenmore,
  file_boardgame_assyria_v1_assyria,
);

/** The message an Any holds, as protobuf JSON (camelCase fields, enum names); null if unknown. */
export function unpacked(any: Any | undefined): JsonValue | null {
  if (!any || !any.typeUrl) return null;
  const message = anyUnpack(any, registry);
  if (!message) return null;
  const name = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
  const schema = registry.getMessage(name);
  return schema ? toJson(schema, message, { registry, alwaysEmitImplicit: true }) : null;
}

export { fromBinary };
