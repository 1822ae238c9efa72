import type { VllmModelList } from '@reward-lens/remote';
import type { RouteAnswer, RouteContext } from './route-context.js';

/** `GET /v1/models`: the served model, as vLLM lists it (`ModelList` of one `ModelCard`). */
export function modelsRoute(context: RouteContext, startedAt: number): RouteAnswer {
  const name = context.options.modelName;
  const list: VllmModelList = {
    object: 'list',
    data: [
      {
        id: name,
        object: 'model',
        created: startedAt,
        owned_by: 'reward-lens',
        root: name,
        parent: null,
        max_model_len: context.prm.source.maxPositions,
        permission: [],
      },
    ],
  };
  return { status: 200, body: list };
}
