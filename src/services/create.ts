// The service layer, built once from what the gateway opened (src/gateway.ts): the documents and
// spreadsheets services, share links and the trash across them, the product backend, and the one
// runner over the operation table that every surface calls.
import type { UpstreamClient } from "../../adapters/upstream/client.ts";
import type { Config } from "../core/config.ts";
import type { DocumentRenderer } from "../documents/renderer.ts";
import type { SheetsPool } from "../spreadsheets/pool/index.ts";
import type { Store } from "../store/types.ts";
import { createDocumentsService } from "./documents.ts";
import { driveFiles } from "./drive-files.ts";
import { createDriveReader } from "./drive-read.ts";
import type { Services } from "./index.ts";
import { createItemsService, createTrashService } from "./items.ts";
import { markdownPreview } from "./preview.ts";
import { createProductBackend } from "./products.ts";
import { createOperationRunner } from "./runner.ts";
import { createSharedService } from "./share-links.ts";
import { createSpreadsheetsService, ManifestCache, RenderedCache, WarningsCache } from "./spreadsheets/index.ts";

export interface ServicesDeps {
  config: Config;
  store: Store;
  renderer: DocumentRenderer;
  sheetsPool: SheetsPool;
  upstream: UpstreamClient;
}

/** Rendered downloads kept in memory (.xlsx and CSV by version): enough for the workbooks in use. */
const RENDERED_CACHE_BYTES = 64 * 1024 * 1024;

export function createServices(deps: ServicesDeps): Services {
  const { config, store } = deps;
  const publicUrl = config.PUBLIC_URL ?? "";
  const products = createProductBackend({ config, upstream: deps.upstream });
  const driveFile = driveFiles(products);
  const documents = createDocumentsService({ store, renderer: deps.renderer, ...(publicUrl ? { publicUrl } : {}) });
  const sheets = createSpreadsheetsService({
    store,
    pool: deps.sheetsPool,
    manifests: new ManifestCache(),
    rendered: new RenderedCache(RENDERED_CACHE_BYTES),
    warnings: new WarningsCache(),
    publicUrl,
    driveFile,
  });
  const shared = createSharedService({ store, documents, sheets });
  const trash = createTrashService({ store, documents, sheets });
  return {
    operations: createOperationRunner({
      documents,
      sheets,
      shared,
      trash,
      driveReader: createDriveReader({ renderer: deps.renderer, sheetsPool: deps.sheetsPool, driveFile }),
      products,
    }),
    documents,
    publicUrl,
    items: createItemsService(store),
    preview: markdownPreview,
  };
}
