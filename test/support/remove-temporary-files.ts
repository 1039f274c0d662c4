import { afterAll } from "vitest";
import { removeTemporaryDirectories } from "./temporary-directory";

// Vitest setup file (both configs): after each test file, whatever its outcome, the temporary databases and files
// its tests made are gone. Vitest stops its workers with a signal, so an exit handler alone would not run.
afterAll(removeTemporaryDirectories);
