import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32cBase64 } from './crc32c.ts';
import type { ObjectStore, StoredObject } from './object-store.ts';

interface BucketFile {
  projectId: string;
  created: string;
}

/**
 * Objects as files under `root/{bucket}/`: each object is `o/{encoded name}` with its metadata in
 * `m/{encoded name}.json` (names are percent-encoded, so `a/b` is one flat file and no name can
 * walk out of the bucket). A write goes to a temporary file first and is renamed into place, so a
 * crash leaves the old object or the new one; writing the same name again replaces it.
 */
export function createLocalObjectStore(root: string): ObjectStore {
  const bucketDir = (bucket: string) => path.join(root, bucket);
  const encode = (name: string) => encodeURIComponent(name).replace(/\./g, '%2E');
  const objectPath = (bucket: string, name: string) => path.join(bucketDir(bucket), 'o', encode(name));
  const metaPath = (bucket: string, name: string) => path.join(bucketDir(bucket), 'm', `${encode(name)}.json`);

  async function owner(bucket: string): Promise<BucketFile | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(bucketDir(bucket), 'bucket.json'), 'utf8')) as BucketFile;
    } catch {
      return undefined;
    }
  }
  const owns = async (projectId: string, bucket: string) => (await owner(bucket))?.projectId === projectId;

  async function writeAtomically(file: string, data: Uint8Array | string): Promise<void> {
    const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, data);
    await fs.rename(temp, file);
  }

  async function readMeta(bucket: string, name: string): Promise<StoredObject | undefined> {
    try {
      return JSON.parse(await fs.readFile(metaPath(bucket, name), 'utf8')) as StoredObject;
    } catch {
      return undefined;
    }
  }

  return {
    kind: 'local',
    async createBucket(projectId, bucket) {
      const existing = await owner(bucket);
      if (existing) return existing.projectId === projectId ? 'exists' : 'taken';
      await fs.mkdir(path.join(bucketDir(bucket), 'o'), { recursive: true });
      await fs.mkdir(path.join(bucketDir(bucket), 'm'), { recursive: true });
      try {
        // `wx`: of two nodes creating the same bucket, one wins.
        await fs.writeFile(path.join(bucketDir(bucket), 'bucket.json'), JSON.stringify({ projectId, created: new Date().toISOString() }), {
          flag: 'wx',
        });
        return 'created';
      } catch {
        return (await owns(projectId, bucket)) ? 'exists' : 'taken';
      }
    },
    hasBucket: owns,
    async put(projectId, bucket, name, bytes, contentType) {
      if (!(await owns(projectId, bucket))) throw new Error(`bucket ${bucket} is not the project's`);
      const now = new Date();
      const previous = await readMeta(bucket, name);
      const object: StoredObject = {
        bucket,
        name,
        size: bytes.byteLength,
        contentType,
        crc32c: crc32cBase64(bytes),
        md5Hash: crypto.createHash('md5').update(bytes).digest('base64'),
        generation: String(Math.max(now.getTime() * 1000, Number(previous?.generation ?? 0) + 1)),
        updated: now.toISOString(),
        created: previous?.created ?? now.toISOString(),
      };
      await writeAtomically(objectPath(bucket, name), bytes);
      await writeAtomically(metaPath(bucket, name), JSON.stringify(object));
      return object;
    },
    async head(projectId, bucket, name) {
      if (!(await owns(projectId, bucket))) return undefined;
      return readMeta(bucket, name);
    },
    async get(projectId, bucket, name, maxBytes) {
      const object = await this.head(projectId, bucket, name);
      if (!object) return undefined;
      const stat = await fs.stat(objectPath(bucket, name)).catch(() => undefined);
      if (!stat) return undefined;
      if (stat.size > maxBytes) return 'too-large';
      const bytes = await fs.readFile(objectPath(bucket, name));
      return { object, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    },
    async list(projectId, bucket, prefix) {
      if (!(await owns(projectId, bucket))) return [];
      const files = await fs.readdir(path.join(bucketDir(bucket), 'm')).catch(() => [] as string[]);
      const names = files
        .filter((f) => f.endsWith('.json'))
        .map((f) => decodeURIComponent(f.slice(0, -5)))
        .filter((n) => n.startsWith(prefix))
        .sort();
      const objects = await Promise.all(names.map((n) => readMeta(bucket, n)));
      return objects.filter((o): o is StoredObject => o !== undefined);
    },
    async delete(projectId, bucket, name) {
      if (!(await owns(projectId, bucket)) || !(await readMeta(bucket, name))) return false;
      await fs.rm(metaPath(bucket, name), { force: true });
      await fs.rm(objectPath(bucket, name), { force: true });
      return true;
    },
  };
}
