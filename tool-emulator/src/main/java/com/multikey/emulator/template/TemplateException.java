package com.multikey.emulator.template;

/** A template construct the local runner cannot interpret; the message names it. */
public final class TemplateException extends RuntimeException {

    public TemplateException(String message) {
        super(message);
    }
}
