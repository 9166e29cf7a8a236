// First: takes the bridge secret out of the link's fragment before anything reads location.hash.
import './lib/hostKey.ts';
import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
