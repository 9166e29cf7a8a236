// Preload of the main window, bundled as CommonJS for Electron's sandbox (scripts/build-main.ts). It exposes
// exactly the bridge — window.authwatch with the contract's methods and on(event) — and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridgeClient } from '../../shared/bridge/remote.ts';
import { ipcTransport } from './preloadTransport.ts';

contextBridge.exposeInMainWorld('authwatch', createBridgeClient(ipcTransport(ipcRenderer)));
