import { readFileSync } from 'node:fs';
import { convertLlama2cToHf, createHfTokenizer, type DecoderModel, type PrmTokenizer } from '@reward-lens/core';
import { sharedDataPath } from '@reward-lens/test-data';

function convertStories260k() {
  const checkpointPath = sharedDataPath('stories260k/stories260K.bin');
  const tokenizerPath = sharedDataPath('stories260k/tok512.bin');
  return convertLlama2cToHf({ bytes: readFileSync(checkpointPath), fileName: checkpointPath }, { bytes: readFileSync(tokenizerPath), fileName: tokenizerPath });
}

/** stories260K's SentencePiece tokenizer as tokenizer.json files. */
export function storiesTokenizerFiles(): { tokenizerJson: unknown; tokenizerConfig: unknown } {
  const { tokenizerJson, tokenizerConfig } = convertStories260k();
  return { tokenizerJson, tokenizerConfig };
}

/** stories260K converted from llama2.c's files in memory, with its tokenizer and run.c's greedy output. */
export function loadStories260k(): { model: DecoderModel; tokenizer: PrmTokenizer; greedy200: string } {
  const conversion = convertStories260k();
  return {
    model: conversion.model,
    tokenizer: createHfTokenizer(conversion.tokenizerJson, conversion.tokenizerConfig, { name: 'stories260K' }),
    greedy200: readFileSync(sharedDataPath('stories260k/greedy-200.txt'), 'utf8'),
  };
}
