import { test, type TestContext } from 'node:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config.ts';

/**
 * deploy/kubernetes.yaml, checked offline the way `kubeconform -strict` and the Pod Security
 * admission's "restricted" level would: every object against the Kubernetes API's schemas
 * (kubernetes-models' validators for types, required fields and enums; TypeScript's excess-property
 * check against the same models' types for misspelt or unknown fields), then the restricted rules.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const FILE = path.join(ROOT, 'deploy/kubernetes.yaml');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function manifests(): Json[] {
  const docs = parseAllDocuments(fs.readFileSync(FILE, 'utf8'));
  for (const d of docs) if (d.errors.length) throw new Error(`${FILE}: ${d.errors[0].message}`);
  return docs.map((d) => d.toJSON()).filter((d) => d !== null);
}

/** `apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment` (core `v1` has no group folder). */
function modelPath(o: Json): string {
  return `kubernetes-models/${o.apiVersion}/${o.kind}`;
}

function podSpecs(objects: Json[]): Array<{ name: string; spec: Json }> {
  return objects
    .filter((o) => ['Deployment', 'Job', 'StatefulSet', 'DaemonSet'].includes(o.kind))
    .map((o) => ({ name: `${o.kind}/${o.metadata.name}`, spec: o.spec.template.spec }));
}

test('deploy/kubernetes.yaml: every object validates against the Kubernetes schemas', async (t: TestContext) => {
  const objects = manifests();
  t.assert.ok(objects.length >= 8);
  for (const o of objects) {
    const mod = await import(modelPath(o));
    const Model = mod[o.kind];
    t.assert.equal(typeof Model, 'function', `${o.kind} ${o.apiVersion} is a known kind`);
    t.assert.doesNotThrow(() => new Model(o).validate(), `${o.kind}/${o.metadata?.name}`);
  }
});

test('deploy/kubernetes.yaml: no unknown or misspelt field (TypeScript excess-property check against the API types)', (t: TestContext) => {
  const objects = manifests();
  const dir = path.join(ROOT, '.tmp');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `manifests-${process.pid}.ts`);
  t.after(() => fs.rmSync(file, { force: true }));
  const lines = objects.map((o, i) => `const o${i}: import('${modelPath(o)}').I${o.kind} = ${JSON.stringify(o, null, 1)};`);
  fs.writeFileSync(file, `${lines.join('\n')}\nexport {};\n`);
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--types',
      'node',
      file,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
  );
  t.assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('deploy/kubernetes.yaml: Pod Security "restricted" on every pod', (t: TestContext) => {
  const allowedVolumes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
  const pods = podSpecs(manifests());
  t.assert.ok(pods.length >= 2);
  for (const { name, spec } of pods) {
    const pod = spec.securityContext ?? {};
    t.assert.ok(!spec.hostNetwork && !spec.hostPID && !spec.hostIPC, `${name}: host namespaces`);
    for (const v of spec.volumes ?? []) {
      const type = Object.keys(v).find((k) => k !== 'name')!;
      t.assert.ok(allowedVolumes.includes(type), `${name}: volume type ${type}`);
    }
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      const sc = c.securityContext ?? {};
      const where = `${name} container ${c.name}`;
      t.assert.equal(sc.privileged ?? false, false, `${where}: privileged`);
      t.assert.equal(sc.allowPrivilegeEscalation, false, `${where}: allowPrivilegeEscalation must be false`);
      t.assert.ok((sc.runAsNonRoot ?? pod.runAsNonRoot) === true, `${where}: runAsNonRoot`);
      t.assert.notEqual(sc.runAsUser ?? pod.runAsUser, 0, `${where}: runAsUser 0`);
      const seccomp = (sc.seccompProfile ?? pod.seccompProfile)?.type;
      t.assert.ok(seccomp === 'RuntimeDefault' || seccomp === 'Localhost', `${where}: seccompProfile RuntimeDefault or Localhost`);
      t.assert.ok(sc.capabilities?.drop?.includes('ALL'), `${where}: capabilities.drop ALL`);
      t.assert.ok(
        (sc.capabilities?.add ?? []).every((cap: string) => cap === 'NET_BIND_SERVICE'),
        `${where}: capabilities.add`,
      );
      t.assert.ok(
        (c.ports ?? []).every((p: Json) => p.hostPort === undefined || p.hostPort === 0),
        `${where}: hostPort`,
      );
      // Not in "restricted" but expected of us: a pinned image and a read-only root.
      t.assert.match(c.image, /^[^:@]+(:[\w.-]+|@sha256:[0-9a-f]{64})$/, `${where}: image has a tag or digest`);
      t.assert.doesNotMatch(c.image, /:latest$/, `${where}: not :latest`);
      t.assert.equal(sc.readOnlyRootFilesystem, true, `${where}: readOnlyRootFilesystem`);
    }
  }
});

test('deploy/kubernetes.yaml: PDB, HPA on CPU, topology spread, NetworkPolicy, migration Job; settings the server accepts', (t: TestContext) => {
  const objects = manifests();
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const [deployment] = byKind('Deployment');
  const labels = deployment.spec.template.metadata.labels;
  const selects = (sel: Json) => Object.entries(sel).every(([k, v]) => labels[k] === v);
  t.assert.ok(selects(byKind('PodDisruptionBudget')[0].spec.selector.matchLabels), 'the PDB selects the server pods');
  const hpa = byKind('HorizontalPodAutoscaler')[0];
  t.assert.equal(hpa.spec.scaleTargetRef.name, deployment.metadata.name);
  t.assert.ok(hpa.spec.metrics.some((m: Json) => m.type === 'Resource' && m.resource.name === 'cpu'));
  t.assert.ok(hpa.spec.minReplicas >= 2);
  const spread = deployment.spec.template.spec.topologySpreadConstraints;
  t.assert.ok(spread.some((s: Json) => s.topologyKey === 'kubernetes.io/hostname' && selects(s.labelSelector.matchLabels)));
  const np = byKind('NetworkPolicy')[0];
  t.assert.deepEqual(np.spec.policyTypes, ['Ingress', 'Egress']);
  t.assert.ok(selects(np.spec.podSelector.matchLabels));
  const job = byKind('Job')[0];
  t.assert.deepEqual(job.spec.template.spec.containers[0].command, ['legible', 'migrate']);
  t.assert.equal(
    job.spec.template.spec.containers[0].image,
    deployment.spec.template.spec.containers[0].image,
    'the Job runs the same release',
  );
  t.assert.ok(selects(byKind('Service')[0].spec.selector));

  // The container's environment (plus the Secret) is a configuration the server starts with.
  const container = deployment.spec.template.spec.containers[0];
  const secret = byKind('Secret')[0].stringData;
  const env = { ...secret, ...Object.fromEntries(container.env.map((e: Json) => [e.name, e.value])) };
  const config = loadConfig(env);
  const ports = Object.fromEntries(container.ports.map((p: Json) => [p.name, p.containerPort]));
  t.assert.equal(config.port, ports.http);
  t.assert.equal(config.admin?.port, ports.admin);
  t.assert.equal(
    Number(deployment.spec.template.metadata.annotations['prometheus.io/port']),
    config.admin?.port,
    'Prometheus scrapes the admin port',
  );
  t.assert.ok(
    np.spec.ingress.some((r: Json) => r.ports.some((p: Json) => p.port === config.admin?.port) && r.from),
    'the admin port is not open to all',
  );
  const probes = [container.livenessProbe, container.readinessProbe, container.startupProbe].map((p) => p.httpGet.path);
  t.assert.deepEqual([...new Set(probes)].sort(), ['/healthz', '/readyz']);
  t.assert.ok(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000 > config.shutdownDrainMs + config.shutdownGraceMs + 5000);
});
