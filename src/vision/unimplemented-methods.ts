import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { VISION_PREFIXES } from './vision-paths.ts';

/**
 * Vision v1 methods Legible does not serve (image_annotator.proto, product_search_service.proto and
 * google.longrunning.Operations as bound by vision_v1.yaml): answered 501 UNIMPLEMENTED naming the
 * method, so a client learns what is missing instead of a bare 404. Paths are relative to `/v1/`.
 */
const P = 'projects/[^/]+/locations/[^/]+';
const PS = 'google.cloud.vision.v1.ProductSearch';
const METHODS: ReadonlyArray<readonly [string, RegExp, string]> = [
  ['POST', new RegExp(`^${P}/products$`), `${PS}.CreateProduct`],
  ['GET', new RegExp(`^${P}/products$`), `${PS}.ListProducts`],
  ['GET', new RegExp(`^${P}/products/[^/:]+$`), `${PS}.GetProduct`],
  ['PATCH', new RegExp(`^${P}/products/[^/:]+$`), `${PS}.UpdateProduct`],
  ['DELETE', new RegExp(`^${P}/products/[^/:]+$`), `${PS}.DeleteProduct`],
  ['POST', new RegExp(`^${P}/products:purge$`), `${PS}.PurgeProducts`],
  ['POST', new RegExp(`^${P}/products/[^/]+/referenceImages$`), `${PS}.CreateReferenceImage`],
  ['GET', new RegExp(`^${P}/products/[^/]+/referenceImages$`), `${PS}.ListReferenceImages`],
  ['GET', new RegExp(`^${P}/products/[^/]+/referenceImages/[^/]+$`), `${PS}.GetReferenceImage`],
  ['DELETE', new RegExp(`^${P}/products/[^/]+/referenceImages/[^/]+$`), `${PS}.DeleteReferenceImage`],
  ['POST', new RegExp(`^${P}/productSets$`), `${PS}.CreateProductSet`],
  ['GET', new RegExp(`^${P}/productSets$`), `${PS}.ListProductSets`],
  ['GET', new RegExp(`^${P}/productSets/[^/:]+$`), `${PS}.GetProductSet`],
  ['PATCH', new RegExp(`^${P}/productSets/[^/:]+$`), `${PS}.UpdateProductSet`],
  ['DELETE', new RegExp(`^${P}/productSets/[^/:]+$`), `${PS}.DeleteProductSet`],
  ['POST', new RegExp(`^${P}/productSets:import$`), `${PS}.ImportProductSets`],
  ['POST', new RegExp(`^${P}/productSets/[^/]+:addProduct$`), `${PS}.AddProductToProductSet`],
  ['POST', new RegExp(`^${P}/productSets/[^/]+:removeProduct$`), `${PS}.RemoveProductFromProductSet`],
  ['GET', new RegExp(`^${P}/productSets/[^/]+/products$`), `${PS}.ListProductsInProductSet`],
  ['DELETE', /^((projects\/[^/]+\/)?(locations\/[^/]+\/)?)?operations\/[^/]+$/, 'google.longrunning.Operations.DeleteOperation'],
];

export function unimplementedMethod(httpMethod: string, relativePath: string): string | undefined {
  return METHODS.find(([m, pattern]) => m === httpMethod && pattern.test(relativePath))?.[2];
}

/**
 * Routes inside the key-authenticated Vision plugin: served methods are registered before, and win.
 * OPTIONS is routed here only so that `visionCors` answers every preflight (the handler never runs).
 */
export function registerUnimplementedMethods(app: FastifyInstance): void {
  for (const prefix of VISION_PREFIXES) {
    app.route({
      method: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'],
      url: `${prefix}/*`,
      schema: { hide: true },
      handler: async (request) => {
        const relative = decodeURIComponent(request.url.split('?')[0]).slice(prefix.length + 1);
        const method = unimplementedMethod(request.method, relative);
        if (!method) throw new AppError('NOT_FOUND', `No route ${request.method} ${prefix}/${relative}.`);
        throw new AppError('UNIMPLEMENTED', `Method ${method} is not implemented by this server (Legible serves text detection).`, {
          metadata: { method, service: 'vision.googleapis.com' },
        });
      },
    });
  }
}
