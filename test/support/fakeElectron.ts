/**
 * A fake `electron` module for the desktop shell's tests (the Electron binary cannot be downloaded here):
 * each object records what the shell asked of it, and lets a test play the OS or the page (emit app
 * events, click tray items, call IPC as some frame). Use with vi.mock('electron', () => fake.module).
 */
type Listener = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener) {
    return this.on(event, listener);
  }
  removeListener(event: string, listener: Listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((l) => l !== listener),
    );
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args);
  }
  /** Emits an event with a preventable first argument; returns whether a listener prevented it. */
  emitPreventable(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

export function createFakeElectron(options: { userData: string; singleInstance?: boolean }) {
  const calls: { method: string; args: unknown[] }[] = [];
  const record = (method: string, ...args: unknown[]) => calls.push({ method, args });

  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => options.singleInstance ?? true,
    setAppUserModelId: (id: string) => record('app.setAppUserModelId', id),
    setLoginItemSettings: (s: unknown) => record('app.setLoginItemSettings', s),
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => (name === 'userData' ? options.userData : '/nonexistent'),
    quit: () => {
      record('app.quit');
      // Electron: before-quit, then will-quit (which may be prevented to finish work first).
      app.emit('before-quit');
      app.emitPreventable('will-quit');
    },
    exit: (code: number) => record('app.exit', code),
  });

  class WebContents extends Emitter {
    readonly sent: { channel: string; payload: unknown }[] = [];
    openHandler: ((d: { url: string }) => { action: string }) | null = null;
    readonly mainFrame = { url: 'app://authwatch/index.html', parent: null };
    setWindowOpenHandler(handler: (d: { url: string }) => { action: string }) {
      this.openHandler = handler;
    }
    send(channel: string, payload: unknown) {
      this.sent.push({ channel, payload });
    }
    isDestroyed() {
      return false;
    }
  }

  const windows: BrowserWindow[] = [];
  class BrowserWindow extends Emitter {
    readonly webContents = new WebContents();
    visible = false;
    focused = false;
    loaded: string | null = null;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    async loadURL(url: string) {
      this.loaded = url;
      this.emit('ready-to-show');
    }
    show() {
      this.visible = true;
    }
    hide() {
      this.visible = false;
    }
    focus() {
      this.focused = true;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    /** The user clicks the window's close button; true when the window really closes. */
    close(): boolean {
      return !this.emitPreventable('close');
    }
  }

  const trays: Tray[] = [];
  class Tray extends Emitter {
    image: string;
    tooltip = '';
    menu: { template: { label?: string; click?: () => void }[] } | null = null;
    destroyed = false;
    constructor(image: string) {
      super();
      this.image = image;
      trays.push(this);
    }
    setImage(image: string) {
      this.image = image;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: { template: { label?: string; click?: () => void }[] }) {
      this.menu = menu;
    }
    destroy() {
      this.destroyed = true;
    }
    /** Clicks the menu item with this label. */
    click(label: string) {
      const item = this.menu?.template.find((i) => i.label === label);
      if (!item?.click) throw new Error(`no tray item “${label}” in ${JSON.stringify(this.menu?.template)}`);
      item.click();
    }
  }

  const notifications: Notification[] = [];
  class Notification extends Emitter {
    static supported = true;
    static isSupported() {
      return Notification.supported;
    }
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      notifications.push(this);
    }
    show() {
      this.shown = true;
    }
    close() {
      this.emit('close');
    }
  }

  const ipcHandlers = new Map<string, Listener>();
  const ipcMain = {
    handle: (channel: string, handler: Listener) => ipcHandlers.set(channel, handler),
    removeHandler: (channel: string) => ipcHandlers.delete(channel),
  };

  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const protocol = {
    privileged: [] as unknown[],
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      record('protocol.registerSchemesAsPrivileged', schemes);
      protocol.privileged.push(...schemes);
    },
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
      protocolHandlers.set(scheme, handler),
  };

  const defaultSession = {
    permissionRequest: null as Listener | null,
    permissionCheck: null as Listener | null,
    devicePermission: null as Listener | null,
    headersReceived: null as Listener | null,
    setPermissionRequestHandler(h: Listener) {
      this.permissionRequest = h;
    },
    setPermissionCheckHandler(h: Listener) {
      this.permissionCheck = h;
    },
    setDevicePermissionHandler(h: Listener) {
      this.devicePermission = h;
    },
    webRequest: {
      onHeadersReceived: (h: Listener) => {
        defaultSession.headersReceived = h;
      },
    },
  };

  /** Chromium's fetch: records the URLs it was given and answers with Node's (no proxy between here). */
  const netRequests: string[] = [];
  const net = {
    fetch: (input: string | Request, init?: RequestInit) => {
      netRequests.push(typeof input === 'string' ? input : input.url);
      return fetch(input, init);
    },
  };

  const opened: string[] = [];
  const shell = { openExternal: async (url: string) => void opened.push(url) };

  /** Reversible, clearly-not-plain-text stand-in for the OS encryption. */
  const safeStorage = {
    available: true,
    backend: 'gnome_libsecret',
    isEncryptionAvailable: () => safeStorage.available,
    getSelectedStorageBackend: () => safeStorage.backend,
    encryptString: (s: string) => Buffer.from('ENC1' + Buffer.from(s).reverse().toString('hex')),
    decryptString: (b: Buffer) => {
      const text = b.toString();
      if (!text.startsWith('ENC1'))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice(4), 'hex').reverse().toString();
    },
  };

  const exposed: Record<string, unknown> = {};
  const contextBridge = {
    exposeInMainWorld: (key: string, api: unknown) => {
      record('contextBridge.exposeInMainWorld', key);
      exposed[key] = api;
    },
  };
  const ipcRenderer = Object.assign(new Emitter(), {
    invocations: [] as unknown[][],
    reply: { ok: true, result: null } as unknown,
    invoke: async (...args: unknown[]) => {
      ipcRenderer.invocations.push(args);
      return ipcRenderer.reply;
    },
  });

  const Menu = { buildFromTemplate: (template: unknown[]) => ({ template }) };

  const module = {
    app,
    BrowserWindow,
    Tray,
    Menu,
    Notification,
    ipcMain,
    protocol,
    session: { defaultSession },
    net,
    shell,
    safeStorage,
    contextBridge,
    ipcRenderer,
  };

  return {
    module,
    calls,
    windows,
    trays,
    notifications,
    ipcHandlers,
    protocolHandlers,
    defaultSession,
    netRequests,
    opened,
    exposed,
    /** Calls the bridge's IPC handler as a frame would. */
    async callBridge(
      method: unknown,
      args: unknown,
      from: { sender?: unknown; url?: string; parent?: unknown; noFrame?: boolean } = {},
    ) {
      const handler = ipcHandlers.get('authwatch:call');
      if (!handler) throw new Error('no bridge handler');
      const win = windows[0]!;
      const event = {
        sender: from.sender ?? win.webContents,
        senderFrame: from.noFrame
          ? null
          : { url: from.url ?? 'app://authwatch/index.html', parent: from.parent ?? null },
      };
      return handler(event, method, args) as Promise<{
        ok: boolean;
        result?: unknown;
        error?: { code: string; message: string };
      }>;
    },
  };
}
