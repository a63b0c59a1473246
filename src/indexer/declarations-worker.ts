import { workerData } from "node:worker_threads";
import { finishDeclarations, openIndexBeingBuilt } from "../store/database.js";

/**
 * Finishes the declaration side of a new index (full-text index, declaration tables' indexes) on its
 * own connection, while the thread that started it resolves references (`finishDeclarationsAside`).
 * It exits with code 0 once done; an exception ends it with code 1.
 */
const { path } = workerData as { path: string };
const db = openIndexBeingBuilt(path);
try {
  finishDeclarations(db);
} finally {
  db.close();
}
