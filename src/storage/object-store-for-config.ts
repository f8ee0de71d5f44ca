import type { Config } from '../config.ts';
import { createLocalObjectStore } from './local-object-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3ObjectStore } from './s3-object-store.ts';

/** STORAGE_BACKEND: `local` (DATA_DIR/storage, the embedded default) or `s3`. */
export function objectStoreFor(storage: Config['storage']): ObjectStore {
  return storage.backend === 's3' ? createS3ObjectStore(storage.s3) : createLocalObjectStore(storage.dir);
}
