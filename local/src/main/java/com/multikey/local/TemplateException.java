package com.multikey.local;

/** A template construct the local runner cannot interpret; the message names it. */
final class TemplateException extends RuntimeException {

    TemplateException(String message) {
        super(message);
    }
}
