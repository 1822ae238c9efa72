import { describe, expect, it } from 'vitest';
import { configLocations } from './config-locations.js';

describe('configLocations', () => {
  it('looks beside the graph, then above an onnx/ folder (the hub layout)', () => {
    expect(configLocations('models/prm/model.onnx')).toEqual(['models/prm/config.json']);
    expect(configLocations('models/prm/onnx/model.onnx')).toEqual(['models/prm/onnx/config.json', 'models/prm/config.json']);
    expect(configLocations('onnx/model.onnx')).toEqual(['onnx/config.json', 'config.json']);
    expect(configLocations('/abs/onnx/model_read_positions.onnx')).toEqual(['/abs/onnx/config.json', '/abs/config.json']);
    expect(configLocations('C:\\models\\prm\\onnx\\model.onnx')).toEqual(['C:/models/prm/onnx/config.json', 'C:/models/prm/config.json']);
    expect(configLocations('https://host/m/onnx/model.onnx?download=1#x')).toEqual(['https://host/m/onnx/config.json', 'https://host/m/config.json']);
    expect(configLocations('model.onnx')).toEqual(['config.json']);
    expect(configLocations('models/bonnx/model.onnx')).toEqual(['models/bonnx/config.json']);
  });
});
