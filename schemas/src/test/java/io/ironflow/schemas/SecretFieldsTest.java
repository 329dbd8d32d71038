package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/** The one masking rule: dictionaries as Ironic's node_sanitize shows them, free text as oslo's mask_password. */
class SecretFieldsTest {

    static final String SECRET = "s3cr3t-Planted";

    @Test
    void driverInfoMasksPasswordLikeKeysAtAnyDepthAndKeepsTheRest() {
        Map<String, Object> masked = SecretFields.driverInfo(Map.of(
                "ipmi_password", SECRET, "ipmi_address", "10.0.0.1", "redfish_auth_token", SECRET,
                "nested", Map.of("ssh_private_key", SECRET, "user", "admin"),
                "notes", List.of("password=" + SECRET), "fake_fail_steps", List.of("deploy.deploy")));
        assertEquals(SecretFields.MASK, masked.get("ipmi_password"));
        assertEquals(SecretFields.MASK, masked.get("redfish_auth_token"));
        assertEquals(Map.of("ssh_private_key", SecretFields.MASK, "user", "admin"), masked.get("nested"));
        assertEquals(List.of("password=" + SecretFields.MASK), masked.get("notes"));
        assertEquals("10.0.0.1", masked.get("ipmi_address"));
        assertEquals(List.of("deploy.deploy"), masked.get("fake_fail_steps"));
    }

    @Test
    void instanceInfoMasksConfigDriveImageUrlChecksumAndRescuePassword() {
        Map<String, Object> masked = SecretFields.instanceInfo(Map.of("configdrive", Map.of("user_data", SECRET),
                "image_url", "http://swift/temp?sig=" + SECRET, "image_checksum", SECRET,
                "rescue_password", SECRET, "root_gb", 10, "image_source", "glance://image"));
        assertEquals(SecretFields.MASK, masked.get("configdrive"));
        assertEquals(SecretFields.MASK, masked.get("image_url"));
        assertEquals(SecretFields.MASK, masked.get("image_checksum"));
        assertEquals(SecretFields.MASK, masked.get("rescue_password"));
        assertEquals(10, masked.get("root_gb"));
        assertEquals("glance://image", masked.get("image_source"));
    }

    @Test
    void textMasksTheValueAfterEverySecretNameInItsCommonForms() {
        assertEquals("ipmitool -U admin password=****** -H 10.0.0.1",
                SecretFields.text("ipmitool -U admin password=" + SECRET + " -H 10.0.0.1"));
        assertEquals("{\"ipmi_password\": \"******\", \"ipmi_address\": \"10.0.0.1\"}",
                SecretFields.text("{\"ipmi_password\": \"" + SECRET + "\", \"ipmi_address\": \"10.0.0.1\"}"));
        assertEquals("{'auth_token': '******'}", SecretFields.text("{'auth_token': '" + SECRET + "'}"));
        String ironics = "A non-empty \"rescue_password\" is required when setting target provision state to rescue";
        assertEquals(ironics, SecretFields.text(ironics), "Ironic's own messages about a secret field stay as they are");
        assertEquals("ssh_key: ******", SecretFields.text("ssh_key: " + SECRET));
        assertEquals("power on failed: BMC timed out", SecretFields.text("power on failed: BMC timed out"));
        assertEquals("the key to node 5 is missing", SecretFields.text("the key to node 5 is missing"));
        assertEquals(null, SecretFields.text(null));
    }

    /** Every key of oslo.utils' strutils._SANITIZE_KEYS is masked, in a dict and in text, whatever its case. */
    @Test
    void everyKeyOfOslosListIsMasked() {
        List<String> oslo = List.of("adminPass", "admin_pass", "password", "admin_password", "auth_token", "new_pass",
                "auth_password", "secret_uuid", "secret", "sys_pswd", "token", "configdrive", "chappassword", "encrypted_key",
                "private_key", "fernetkey", "sslkey", "passphrase", "cephclusterfsid", "octaviaheartbeatkey", "rabbitcookie",
                "cephmanilaclientkey", "pacemakerremoteauthkey", "designaterndckey", "cephadminkey", "heatauthencryptionkey",
                "cephclientkey", "keystonecredential", "barbicansimplecryptokek", "cephrgwkey", "swifthashsuffix",
                "migrationsshkey", "cephmdskey", "cephmonkey", "chapsecret");
        for (String key : oslo) {
            assertEquals(SecretFields.MASK, SecretFields.driverInfo(Map.of(key, SECRET)).get(key), key);
            assertFalse(SecretFields.text("{\"" + key + "\": \"" + SECRET + "\"}").contains(SECRET), key);
            assertFalse(SecretFields.text(key + "=" + SECRET).contains(SECRET), key);
        }
    }

    /** A quoted secret is masked to its closing quote, spaces and all (oslo's _FORMAT_PATTERNS_2), not to its first space. */
    @Test
    void aQuotedSecretWithSpacesIsMaskedWhole() {
        assertEquals("{\"password\": \"******\", \"user\": \"admin\"}",
                SecretFields.text("{\"password\": \"correct horse battery\", \"user\": \"admin\"}"));
        assertEquals("password='******' user=admin", SecretFields.text("password='correct horse' user=admin"));
        assertEquals(List.of("{\"adminPass\": \"******\"}"),
                SecretFields.driverInfo(Map.of("notes", List.of("{\"adminPass\": \"two words\"}"))).get("notes"));
        assertFalse(SecretFields.text("token: \"never closed and long").contains("closed"), "an unclosed quote: to the end");
    }

    @Test
    void theLogFilterMasksTheFormattedMessageAndTheThrownChain() {
        ExtLogRecord record = new ExtLogRecord(Level.SEVERE, "power failed for %s: password=%s",
                ExtLogRecord.FormatStyle.PRINTF, SecretFieldsTest.class.getName());
        record.setParameters(new Object[] {"node-1", SECRET});
        record.setThrown(new IllegalStateException("outer", new RuntimeException("token=" + SECRET)));
        assertTrue(new SecretLogFilter().isLoggable(record));
        assertEquals("power failed for node-1: password=******", record.getFormattedMessage());
        assertFalse(String.valueOf(record.getThrown().getCause()).contains(SECRET));
        assertEquals("java.lang.RuntimeException: token=******", record.getThrown().getCause().toString());
        assertEquals("java.lang.IllegalStateException: outer", record.getThrown().toString());
    }
}
