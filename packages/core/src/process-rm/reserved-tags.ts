import { InvalidInputError } from '@reward-lens/spec';
import type { ReadingRecipe } from '../recipes/reading-recipe.js';
import type { CharSpan, PrmTokenizer } from '@reward-lens/tokenizers';

/** Special-token spellings (`<extra_0>`, `<|eot_id|>`) in a recipe's template. */
const specialSpelling = /<\|[^|<>\s]+\|>|<[A-Za-z_][\w.-]*>/g;

interface ReservedTags {
  /** Token id to its spelling. */
  byId: Map<number, string>;
  /** The tokenizer's `refusedSpellings`, compiled once to search whole texts. */
  refused: RegExp | undefined;
}

const cache = new WeakMap<PrmTokenizer, WeakMap<ReadingRecipe, ReservedTags>>();

/**
 * The tokens a recipe's template places around the content and that the content must not hold:
 * the step tag read at each boundary (`<extra_0>`, ` ки`), and special tokens of the template
 * (`<|eot_id|>`, `<|im_start|>`). Inside a problem or step they would give the model an extra
 * boundary, or break the conversation's structure.
 */
function reservedTagsOf(tokenizer: PrmTokenizer, recipe: ReadingRecipe): ReservedTags {
  let byRecipe = cache.get(tokenizer);
  if (!byRecipe) {
    byRecipe = new WeakMap();
    cache.set(tokenizer, byRecipe);
  }
  const cached = byRecipe.get(recipe);
  if (cached) return cached;
  const byId = new Map<number, string>();
  const add = (spelling: string) => {
    const id = tokenizer.tokenToId(spelling);
    if (id !== undefined) byId.set(id, spelling);
  };
  // A tag read where it stands is the boundary itself; a token read next to its anchor ('+' of a
  // chat turn, read one token before) is ordinary text elsewhere.
  if (recipe.readAt.at === 'suffix' && recipe.readAt.tokenOffset === 0) add(recipe.readAt.text);
  const { template } = recipe;
  for (const text of [template.prefix, template.problemSuffix, template.stepJoiner, template.stepSuffix, template.suffix]) {
    for (const match of text.matchAll(specialSpelling)) add(match[0]);
  }
  const refused = tokenizer.refusedSpellings && new RegExp(tokenizer.refusedSpellings.source, `${tokenizer.refusedSpellings.flags.replace('g', '')}g`);
  const reserved = { byId, refused };
  byRecipe.set(recipe, reserved);
  return reserved;
}

function readTag(recipe: ReadingRecipe): string | undefined {
  return recipe.readAt.at === 'suffix' ? recipe.readAt.text : undefined;
}

function refusal(recipe: ReadingRecipe, label: string, spelling: string): InvalidInputError {
  return new InvalidInputError(
    `${label} contains ${JSON.stringify(spelling)}, the token recipe "${recipe.name}" places at step boundaries; ` +
      'the model would see an extra boundary there. Remove or rewrite it in the text' +
      (label !== 'the problem' && spelling === readTag(recipe)
        ? ` (if it marks the steps, use it as the delimiter: delimiter: ${JSON.stringify(spelling)})`
        : '') +
      '.',
    { location: label },
  );
}

/**
 * Refuses a problem or step whose own tokens include a reserved tag, naming where. Only tokens
 * wholly inside the content count, so a tag the template puts right after a step is not confused
 * with one inside it.
 */
export function refuseTagsInContent(
  tokenizer: PrmTokenizer,
  recipe: ReadingRecipe,
  ids: readonly number[],
  offsets: readonly CharSpan[],
  contents: readonly { label: string; span: CharSpan }[],
): void {
  const { byId } = reservedTagsOf(tokenizer, recipe);
  if (byId.size === 0) return;
  for (let token = 0; token < ids.length; token++) {
    const spelling = byId.get(ids[token]!);
    if (spelling === undefined) continue;
    const [start, end] = offsets[token]!;
    const holder = contents.find(({ span }) => span[0] <= start && end <= span[1]);
    if (holder) throw refusal(recipe, holder.label, spelling);
  }
}

/**
 * Refuses a problem or step whose text spells a reserved tag that is a control token of the
 * tokenizer (`<extra_0>`, `<|im_start|>`). User text is encoded as plain text, so such a tag would
 * not reach the model as the tag; it is refused rather than silently read as characters, as
 * vLLM's source refuses it.
 */
export function refuseTagTextInContent(
  tokenizer: PrmTokenizer,
  recipe: ReadingRecipe,
  text: string,
  contents: readonly { label: string; span: CharSpan }[],
): void {
  const control = new Set(tokenizer.controlTokens ?? []);
  const tags = reservedTagsOf(tokenizer, recipe);
  const reserved = [...tags.byId.values()];
  const spellings = reserved.filter((spelling) => control.has(spelling));
  const elsewhere = tags.refused;
  if (spellings.length === 0 && elsewhere === undefined) return;
  for (const { label, span } of contents) {
    const content = text.slice(span[0], span[1]);
    const found = spellings.find((spelling) => content.includes(spelling));
    if (found !== undefined) throw refusal(recipe, label, found);
    // The recipe's own tags are refused by their ids, with the message that says how to use them.
    const spelled = elsewhere === undefined ? undefined : [...content.matchAll(elsewhere)].find((match) => !reserved.includes(match[0]))?.[0];
    if (spelled !== undefined) {
      throw new InvalidInputError(
        `${label} contains ${JSON.stringify(spelled)}, which the server's tokenizer may read as a special token (this text is sent as text); ` +
          'remove it, or connect with a tokenizer so that token ids are sent and it is read as plain text',
        { location: label },
      );
    }
  }
}
